"""Facts that change from the command line: conflicts printed after `remember`, `supersede`,
`history`, `invalidate`, `recall --as-of`, `conflicts`, `dismiss-conflict`, `loci eval facts`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import run_loci


def remembered(home: Path, *args: str) -> dict[str, object]:
    done = run_loci(home, "remember", *args, "--json")
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_a_fact_changed_from_the_command_line(tmp_path: Path) -> None:
    old = remembered(tmp_path, "Dana lives in Berlin.", "--valid-from", "2022-03-01")
    told = run_loci(tmp_path, "remember", "Dana moved to Lisbon.", "--valid-from", "2023-09-01")
    assert told.returncode == 0 and f"contradicts {old['id']} (flagged)" in told.stdout
    listed = run_loci(tmp_path, "conflicts")
    assert "berlin" in listed.stdout and str(old["id"]) in listed.stdout
    newer = json.loads(run_loci(tmp_path, "conflicts", "--json").stdout)["conflicts"][0]
    replaced = run_loci(tmp_path, "supersede", str(old["id"]), "--new-id", newer["newer"]["id"])
    assert replaced.returncode == 0 and "ended 2023-09-01" in replaced.stdout
    assert "no open conflicts" in run_loci(tmp_path, "conflicts").stdout
    shown = run_loci(tmp_path, "history", str(old["id"])).stdout.splitlines()
    assert shown[0].startswith("* 2022-03-01 .. 2023-09-01") and "Lisbon" in shown[1]
    then = run_loci(tmp_path, "recall", "Where does Dana live?", "--as-of", "2023-01-01", "--json")
    assert [m["id"] for m in json.loads(then.stdout)["memories"]] == [old["id"]]
    ended = remembered(tmp_path, "Dana chairs the board.", "--valid-from", "2020-01-01")
    run_loci(tmp_path, "invalidate", str(ended["id"]), "--valid-until", "2021-01-01")
    table = run_loci(tmp_path, "recall", "Dana chairs the board").stdout
    assert "(ended 2021-01-01)" in table


def test_bad_dates_and_ids_are_refused_from_the_command_line(tmp_path: Path) -> None:
    bad = run_loci(tmp_path, "remember", "x", "--valid-from", "soon")
    assert bad.returncode != 0 and "valid_from" in bad.stderr
    missing = run_loci(tmp_path, "history", "00000000-0000-4000-8000-000000000000")
    assert missing.returncode != 0 and "no memory" in missing.stderr
    neither = run_loci(tmp_path, "supersede", "00000000-0000-4000-8000-000000000000")
    assert neither.returncode != 0


def test_eval_facts_reports_each_group(tmp_path: Path) -> None:
    scenarios = [
        {
            "id": f"{group}1",
            "statements": [
                {"key": "s1", "date": "2022-01-01", "text": "Dana lives in Berlin."},
                {"key": "s2", "date": "2023-09-01", "text": "Dana moved to Lisbon."},
            ],
            "conflicts": [["s1", "s2"]],
            "questions": [
                {"q": "Where does Dana live?", "kind": "now", "expect": "s2", "not": ["s1"]},
                {
                    "q": "Where did Dana live?",
                    "kind": "as_of",
                    "as_of": "2023-01-01",
                    "expect": "s1",
                    "not": ["s2"],
                },
            ],
        }
        for group in ("a", "b")
    ]
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"scenarios": scenarios}), encoding="utf-8")
    done = run_loci(tmp_path / "home", "eval", "facts", str(path), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    flag, supersede = report["flag"], report["supersede"]
    assert set(flag["groups"]) == {"a", "b"} and report["scenarios"] == 2
    assert flag["all"]["now@1"] == 1.0 and flag["all"]["as_of@1"] == 1.0
    assert flag["all"]["conflict_precision"] == 1.0 and flag["all"]["conflict_recall"] == 1.0
    assert supersede["all"]["wrongly_closed"] == 0 and supersede["all"]["now@1"] == 1.0
    path.write_text("{not json", encoding="utf-8")
    broken = run_loci(tmp_path / "home", "eval", "facts", str(path))
    assert broken.returncode != 0 and "cannot read the facts set" in broken.stderr
