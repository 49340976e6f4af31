"""`loci story ...` and `loci eval story` in-process, on a real data folder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import run_loci as loci
from tests.storytext import filler

CAST = (
    '"The tide turns at midnight," said Mira Voss. Mira Voss had sailed from Port Elder '
    "with Tobias Reed, who kept the ledger. Tobias Reed wrote everything down."
)


def manuscript(paragraphs: int) -> str:
    body = [CAST] + [filler(seed) for seed in range(paragraphs)] + ["Mira Voss sold the rudder."]
    return "\n\n".join(body)


def test_import_then_read_the_story_back(tmp_path: Path) -> None:
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    text = manuscript(20)
    wrapped = (
        "*** START OF THE PROJECT GUTENBERG EBOOK VOSS ***\n\n"
        f"{text}\n\n*** END OF THE PROJECT GUTENBERG EBOOK VOSS ***\nLicence."
    )
    file.write_bytes(wrapped.replace("\n", "\r\n").replace('"', "\u201d").encode("cp1252"))
    imported = loci(
        home, "story", "import", str(file), "--session", "voss", "--tokens", "200", "--json"
    )
    assert imported.returncode == 0, imported.stderr
    summary = json.loads(imported.stdout)
    assert summary["interactions"] > 5 and summary["story_tokens"] > 1500

    characters = loci(home, "story", "characters", "voss")
    assert "Mira Voss" in characters.stdout and "Tobias Reed" in characters.stdout
    context = json.loads(
        loci(home, "story", "context", "voss", "Who kept the ledger?", "--json").stdout
    )
    assert context["tokens"] <= context["max_tokens"] and "Tobias Reed" in context["text"]
    stats = loci(home, "story", "stats", "voss")
    assert "voss: window" in stats.stdout
    assert "voss" in loci(home, "story", "stats").stdout
    assert loci(home, "story", "threads", "voss").stdout.strip() == "no plot threads yet"

    exported = tmp_path / "out.txt"
    assert loci(home, "story", "export", "voss", "-o", str(exported)).returncode == 0
    assert exported.read_text(encoding="utf-8") == text.replace('"', "\u201d")
    as_json = json.loads(loci(home, "story", "export", "voss", "--json").stdout)
    assert as_json == {"session_id": "voss", "text": text.replace('"', "\u201d")}


def test_an_undecodable_file_is_refused_naming_it_and_nothing_is_stored(tmp_path: Path) -> None:
    home, file = tmp_path / "home", tmp_path / "binary.txt"
    file.write_bytes(bytes(range(256)) * 8)
    result = loci(home, "story", "import", str(file), "--session", "s")
    assert result.returncode != 0
    assert str(file) in result.stderr and "offset" in result.stderr
    assert "no story sessions yet" in loci(home, "story", "stats").stdout


def test_unknown_session_and_path_like_ids_are_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    missing = loci(home, "story", "context", "nope", "anything")
    assert missing.returncode != 0 and "no story session 'nope'" in missing.stderr
    bad = loci(home, "story", "export", "../etc")
    assert bad.returncode != 0 and "session_id must be" in bad.stderr


def test_eval_story_prints_every_figure_with_its_baseline(tmp_path: Path) -> None:
    novel, spec = tmp_path / "novel.txt", tmp_path / "spec.json"
    novel.write_text(manuscript(40), encoding="utf-8")
    needles = [
        {
            "fact": "Mira Voss hid the map in a hollow oar.",
            "question": "Where did Mira Voss hide the map?",
            "answer": "a hollow oar",
        },
        {
            "fact": "Tobias Reed was born in a lighthouse.",
            "question": "Where was Tobias Reed born?",
            "answer": "a lighthouse",
        },
    ]
    spec.write_text(
        json.dumps(
            {
                "novel": "novel.txt",
                "characters": [
                    {"name": "Mira Voss", "aliases": ["Voss"]},
                    {"name": "Tobias Reed", "aliases": ["Reed"]},
                ],
                "places": ["Port Elder"],
                "needles": needles,
            }
        ),
        encoding="utf-8",
    )
    result = loci(tmp_path / "home", "eval", "story", str(spec), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["needle_in_context"] == 1.0 and report["needle_in_search@5"] == 1.0
    assert report["character_recall"] == 1.0 and report["spurious_characters"] == 0
    assert report["baseline"]["needle_in_search@5"] == 1.0
    novel.write_text(manuscript(2), encoding="utf-8")  # the table's layout needs no long book
    table = loci(tmp_path / "home", "eval", "story", str(spec))
    assert "needle_in_context" in table.stdout and "baseline" in table.stdout
