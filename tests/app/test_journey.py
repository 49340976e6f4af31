"""`journey` on a real store and model: a path between two memories, gaps where nothing is."""

from __future__ import annotations

import numpy as np
import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.spatial.journey import NEAR_SIMILARITY, slerp
from tests.cli_runner import run_loci

GRADIENT = [
    "React components render the user interface from props and state.",
    "State management libraries keep the React application's state in one store.",
    "Redux reducers apply actions to the store, one event at a time.",
    "Event sourcing stores every change to application state as an event.",
    "An event log is replayed to rebuild the state of the database.",
    "Database transactions commit changes to the tables atomically.",
]
ELSEWHERE = [
    "My grandmother grew tomatoes on the balcony.",
    "The ferry to the island leaves at nine.",
]


def remember_all(app: App, texts: list[str]) -> list[str]:
    return [app.memory.remember(MemoryDraft(content=text)).id for text in texts]


def test_slerp_stays_on_the_sphere_between_its_ends() -> None:
    rng = np.random.default_rng(7)
    a, b = (v / np.linalg.norm(v) for v in rng.normal(size=(2, 384)).astype(np.float32))
    assert np.allclose(slerp(a, b, 0.0), a, atol=1e-5) and np.allclose(
        slerp(a, b, 1.0), b, atol=1e-5
    )
    middle = slerp(a, b, 0.5)
    assert abs(float(np.linalg.norm(middle)) - 1) < 1e-5
    assert abs(float(middle @ a) - float(middle @ b)) < 1e-5
    assert np.allclose(slerp(a, -a, 0.5) @ slerp(a, -a, 0.5), 1.0, atol=1e-5)  # no NaN


def test_the_path_walks_through_the_memories_between(app: App) -> None:
    ids = remember_all(app, GRADIENT + ELSEWHERE)
    found = app.journeys.journey(ids[0], ids[5], steps=4)
    assert [s.step for s in found.path] == [1, 2, 3, 4]
    walked = [s.nearest_memory.id for s in found.path if s.nearest_memory is not None]
    assert len(walked) == len(set(walked)) and not {ids[0], ids[5]} & set(walked)
    assert set(walked) <= set(ids[1:5])  # the unrelated memories are never on it
    for step in found.path:
        if step.nearest_memory is not None:
            assert step.nearest_memory.similarity >= NEAR_SIMILARITY
            assert step.distance_to_ideal == pytest.approx(
                1 - step.nearest_memory.similarity, abs=1e-3
            )
    assert found.path_density == sum(not s.gap for s in found.path) / 4
    assert found.total_distance > 0 and found.start.id == ids[0] and found.end.id == ids[5]


def test_with_nothing_between_every_point_is_a_gap(app: App) -> None:
    ids = remember_all(app, [GRADIENT[0], ELSEWHERE[0]])
    found = app.journeys.journey(ids[0], ids[1], steps=3)
    assert all(s.gap and s.nearest_memory is None for s in found.path)
    assert found.path_density == 0.0
    vectors = app.engine.embed([GRADIENT[0], ELSEWHERE[0]])
    assert found.total_distance == pytest.approx(1 - float(vectors[0] @ vectors[1]), abs=1e-3)


def test_bad_input_is_refused(app: App) -> None:
    ids = remember_all(app, GRADIENT[:2])
    with pytest.raises(NotFoundError):
        app.journeys.journey(ids[0], "00000000-0000-4000-8000-000000000000")
    with pytest.raises(InvalidInputError, match="same memory"):
        app.journeys.journey(ids[0], ids[0])
    for steps in (0, 21, 10**9):
        with pytest.raises(InvalidInputError, match="steps"):
            app.journeys.journey(ids[0], ids[1], steps)
    with pytest.raises(InvalidInputError, match="start_id"):
        app.journeys.journey("../etc/passwd", ids[1])


def test_the_cli_prints_the_path(app: App) -> None:
    ids = remember_all(app, GRADIENT)
    home = app.settings.home
    app.close()
    shown = run_loci(home, "journey", ids[0], ids[5], "--steps", "2")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0].startswith("start  React components")
    assert "total distance" in shown.stdout
    missing = run_loci(home, "journey", ids[0], "00000000-0000-4000-8000-000000000000")
    assert missing.returncode == 3 and "no memory" in missing.stderr
