"""`loci story ...` and `loci eval story` in-process, on a real data folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

from loci.toolsets.story.cast_commands import ALIASES_LISTED
from tests.cli_runner import run_loci as loci
from tests.storytext import filler

CAST = (
    '"The tide turns at midnight," said Mira Voss. Mira Voss had sailed from Port Elder '
    "with Tobias Reed, who kept the ledger. Tobias Reed wrote everything down."
)


def manuscript(paragraphs: int) -> str:
    body = [CAST] + [filler(seed) for seed in range(paragraphs)] + ["Mira Voss sold the rudder."]
    return "\n\n".join(body)


def imported(tmp_path: Path, text: str, session: str, *options: str) -> Path:
    """A data folder holding `text`, imported with `loci story import` as `session`."""
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    file.write_text(text, encoding="utf-8")
    done = loci(home, "story", "import", str(file), "--session", session, *options)
    # Standard output holds the summary alone: a tester's began with an empty line, where the
    # progress bar, hidden off a terminal, had been.
    assert done.returncode == 0 and done.stdout.startswith("imported "), done.stdout
    return home


def test_an_import_off_a_terminal_says_its_progress_by_tenths_on_standard_error(
    tmp_path: Path,
) -> None:
    # Piped to a file, a 55-second import printed nothing until it ended: the bar shows only
    # on a terminal.
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    file.write_text(manuscript(20), encoding="utf-8")
    done = loci(home, "story", "import", str(file), "--session", "v", "--tokens", "100")
    lines = [line for line in done.stderr.splitlines() if line.startswith("reading, embedding")]
    assert [line.split(": ")[1].split("%")[0] for line in lines] == [
        str(share) for share in range(10, 101, 10)
    ]
    assert re.fullmatch(r"reading, embedding, archiving: 100% \((\d+) of \1\)", lines[-1])
    assert done.stdout.startswith("imported ") and "%" not in done.stdout
    quiet = loci(home, "story", "import", str(file), "--session", "w", "--json")
    assert "reading" not in quiet.stderr and json.loads(quiet.stdout)["interactions"] > 1


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


def test_story_search_prints_the_passages_that_answer_a_query(tmp_path: Path) -> None:
    # Two testers looked for `loci story search` and found only the MCP tool.
    home = imported(tmp_path, manuscript(30), "voss")
    found = loci(home, "story", "search", "voss", "Who sold the rudder?", "--limit", "2")
    assert found.returncode == 0, found.stderr
    first = found.stdout.split("\n2. ")[0]
    assert first.startswith("1. [") and "Mira Voss sold the rudder." in first
    hits = json.loads(loci(home, "story", "search", "voss", "the ledger", "--json").stdout)
    assert hits["query"] == "the ledger" and 1 <= len(hits["hits"]) <= 5
    assert all(hit["chunk"] is None for hit in hits["hits"])
    for bad, said in (
        (("nope", "the ledger"), "no story session 'nope'"),
        (("voss", "  "), "query must not be empty"),
        (("voss", "x", "--limit", "0"), "--limit"),
        (("voss", "x", "--kind", "ship"), "--kind"),
    ):
        refused = loci(home, "story", "search", *bad)
        assert refused.returncode != 0 and said in refused.stderr, (bad, refused.stderr)


def test_an_undecodable_file_is_refused_naming_it_and_nothing_is_stored(tmp_path: Path) -> None:
    home, file = tmp_path / "home", tmp_path / "binary.txt"
    file.write_bytes(bytes(range(256)) * 8)
    result = loci(home, "story", "import", str(file), "--session", "s")
    assert result.returncode != 0
    assert str(file) in result.stderr and "offset" in result.stderr
    assert "no story sessions yet" in loci(home, "story", "stats").stdout


def test_unknown_session_and_path_like_ids_are_refused(tmp_path: Path) -> None:
    home = imported(tmp_path, manuscript(2), "s")
    missing = loci(home, "story", "context", "nope", "anything")
    assert missing.returncode != 0 and "no story session 'nope'" in missing.stderr
    # A newcomer with a wrong --home was not told which data folder was read.
    assert f"(data folder {home})" in missing.stderr
    bad = loci(home, "story", "export", "../etc")
    assert bad.returncode != 0 and "session_id must be" in bad.stderr


def test_a_command_on_what_is_stored_creates_nothing_in_a_data_folder_without_a_store(
    tmp_path: Path,
) -> None:
    # A newcomer's mistyped --home left an empty store behind it (reading, or correcting a
    # cast that cannot be there).
    wrong = tmp_path / "wrong"
    for command in [
        ["story", "characters", "s"],
        ["story", "suggestions", "s"],
        ["story", "undo", "s"],
        ["story", "merge", "s", "Mira", "Mira Voss"],
        ["story", "stats", "s"],
        ["story", "export", "s"],
        ["recall", "anything"],
        ["checkpoints", "list"],
    ]:
        result = loci(wrong, *command)
        assert result.returncode == 3, (command, result.stderr)
        assert f"no loci store in data folder {wrong}:" in result.stderr
        assert not wrong.exists(), command
    # The story sessions of a new folder: none, and the folder is named, and nothing made.
    listed = loci(wrong, "story", "stats")
    assert listed.returncode == 0 and f"(data folder {wrong} holds no store)" in listed.stdout
    assert json.loads(loci(wrong, "story", "stats", "--json").stdout) == {"sessions": []}
    assert not wrong.exists()
    # An overview of the whole data folder says what it holds, nothing so far.
    assert (
        loci(wrong, "stats").returncode == 0
        and loci(wrong, "namespaces", "create", "x").returncode == 0
    )


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
            "fact": "Captain Tobias Reed was born in a lighthouse.",  # the novel never says so
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
                    {"name": "Tobias Reed", "aliases": ["Reed", "Captain Tobias Reed"]},
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
    assert report["character_recall"] == 1.0 and report["spurious"] == 0
    # "Voss", never written alone, is Mira Voss's surname and no one else's: a name of hers.
    assert report["cohesion"] >= 0.75 and report["conflated"] == 0
    # "Voss" is written, inside "Mira Voss"; "Captain Tobias Reed" only in a planted fact,
    # which the cast reads as the novel's.
    assert report["cohesion_ceiling"] == 1.0 >= report["cohesion"]
    assert report["suggestions"] == report["suggestions_refused"] == 0
    assert report["cohesion_suggested"] == report["cohesion"]  # nothing suggested, nothing moved
    assert report["baseline"]["needle_in_search@5"] == 1.0
    novel.write_text(manuscript(2), encoding="utf-8")  # the table's layout needs no long book
    table = loci(tmp_path / "home", "eval", "story", str(spec))
    assert "needle_in_context" in table.stdout and "baseline" in table.stdout
    both = loci(tmp_path / "home", "eval", "story", str(spec), str(spec), "--table")
    assert both.returncode == 0, both.stderr
    assert "cohesion" in both.stdout and both.stdout.count("spec") >= 2
    assert "cohesion_suggested" in both.stdout and "cohesion_ceiling" in both.stdout


def test_an_indented_manuscript_comes_back_exactly_and_is_never_imported_twice(
    tmp_path: Path,
) -> None:
    home, file = tmp_path / "home", tmp_path / "indent.txt"
    prose = ("Peg counted the flashes of the lamp. " * 6).strip()
    verse = '    "A letter," she read.\n    Verse two.'
    file.write_text("\n\n".join([prose, verse] * 6) + "\n", encoding="utf-8")
    first = loci(home, "story", "import", str(file), "--session", "ind", "--tokens", "50")
    assert first.returncode == 0, first.stderr
    exported = loci(home, "story", "export", "ind")
    assert exported.stdout == file.read_text(encoding="utf-8")

    again = loci(home, "story", "import", str(file), "--session", "ind", "--tokens", "50")
    assert again.returncode == 4 and "already holds this text" in again.stderr
    assert loci(home, "story", "export", "ind").stdout == exported.stdout
    forced = loci(home, "story", "import", str(file), "--session", "ind", "--again", "--json")
    added = json.loads(forced.stdout)
    assert added["added_tokens"] > 0 and added["story_tokens"] > added["added_tokens"]


def test_an_interrupted_import_goes_on_where_it_stopped(tmp_path: Path) -> None:
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    text = manuscript(12)
    file.write_text(text, encoding="utf-8")
    from loci.token_count import BpeCounter
    from loci.toolsets.story.manuscript import interactions

    pieces = list(interactions(text, BpeCounter(), 200))
    partial = tmp_path / "partial.txt"
    partial.write_text("\n\n".join(pieces[:3]), encoding="utf-8")
    assert (
        loci(home, "story", "import", str(partial), "--session", "s", "--tokens", "200").returncode
        == 0
    )
    resumed = loci(
        home, "story", "import", str(file), "--session", "s", "--tokens", "200", "--json"
    )
    report = json.loads(resumed.stdout)
    assert report["resumed_after"] == 3 and report["interactions"] == len(pieces) - 3
    assert loci(home, "story", "export", "s").stdout == text  # byte for byte


def test_a_story_written_on_after_its_import_is_not_doubled_by_importing_it_again(
    tmp_path: Path,
) -> None:
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    file.write_text(manuscript(6) + "\n", encoding="utf-8")
    first = loci(home, "story", "import", str(file), "--session", "w", "--tokens", "200")
    assert first.returncode == 0, first.stderr
    from loci.app import build_app
    from loci.settings import load_settings
    from tests.cli_runner import shared_model

    app = build_app(load_settings(home=home), shared_model())
    app.story.continue_story("w", "Go on.", "Mira Voss rowed home in the dark.")
    app.close()
    before = loci(home, "story", "export", "w").stdout
    again = loci(home, "story", "import", str(file), "--session", "w", "--tokens", "200")
    assert again.returncode == 4 and "followed by" in again.stderr, again.stderr
    assert loci(home, "story", "export", "w").stdout == before


def test_an_export_is_the_file_byte_for_byte_to_a_file_and_to_standard_output(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    for number, ending in enumerate(("\n", "", "\n\n")):
        file = tmp_path / f"novel{number}.txt"
        file.write_bytes((manuscript(3) + ending).encode("utf-8"))
        session = f"s{number}"
        assert loci(home, "story", "import", str(file), "--session", session).returncode == 0
        out = tmp_path / f"out{number}.txt"
        assert loci(home, "story", "export", session, "-o", str(out)).returncode == 0
        assert out.read_bytes() == file.read_bytes()
        assert loci(home, "story", "export", session).stdout.encode("utf-8") == file.read_bytes()


def test_a_utf16_manuscript_without_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    home, file = tmp_path / "home", tmp_path / "wide.txt"
    file.write_bytes(manuscript(3).encode("utf-16-le"))
    result = loci(home, "story", "import", str(file), "--session", "wide")
    assert result.returncode == 0, result.stderr
    assert "Mira Voss" in loci(home, "story", "characters", "wide").stdout


def test_context_limits_name_their_setting_and_an_input_larger_than_the_budget_is_refused(
    tmp_path: Path,
) -> None:
    home = imported(tmp_path, manuscript(3), "s")
    huge = loci(
        home, "story", "context", "s", "word " * 80_000, LOCI_STORY_MAX_INPUT_BYTES="300000"
    )
    assert (
        huge.returncode == 2 and "the limit is 300000 (LOCI_STORY_MAX_INPUT_BYTES)" in huge.stderr
    )
    long_input = "The lantern swung over the quay. " * 600
    over = loci(home, "story", "context", "s", long_input, "--max-tokens", "1000")
    assert over.returncode == 2 and "leaves no room for context" in over.stderr


def test_the_writer_curates_the_cast_from_the_command_line(tmp_path: Path) -> None:
    cast = (
        'Tobias Reed mended the nets, and Tobias Reed laughed. "Tide," said Pim, and Pim '
        "whistled as he worked. Hush fell over the harbour. Port Elder slept."
    )
    home = imported(tmp_path, "\n\n".join([cast] * 3), "s")
    merged = loci(home, "story", "merge", "s", "Tobias Reed", "Pim", "--json")
    assert merged.returncode == 0, merged.stderr
    info = json.loads(merged.stdout)
    assert {"Tobias Reed", "Pim"} <= set(info["aliases"]) and info["corrections"]
    renamed = json.loads(loci(home, "story", "rename", "s", "Pim", "Captain Reed", "--json").stdout)
    assert renamed["name"] == "Captain Reed"
    shown = loci(home, "story", "character", "s", "Pim").stdout
    assert shown.startswith("Captain Reed (character") and "correction:" in shown
    assert "\nintroduced: " in shown  # the sentences that introduced it, not one mention
    split = json.loads(loci(home, "story", "split", "s", "Tobias Reed", "Pim", "--json").stdout)
    assert split["aliases"] == ["Pim"] and split["name"] == "Pim"  # the new name stayed behind
    assert (
        "Pim"
        not in json.loads(loci(home, "story", "character", "s", "Tobias Reed", "--json").stdout)[
            "aliases"
        ]
    )
    place = json.loads(loci(home, "story", "kind", "s", "Pim", "place", "--json").stdout)
    assert place["kind"] == "place"
    # A warning comes right after the character's first line, where it is seen.
    same = loci(home, "story", "kind", "s", "Tobias Reed", "character").stdout.splitlines()
    assert same[1].startswith("warning: '") and same[1].endswith(
        "was a character already: it stays so"
    )
    missing = loci(home, "story", "merge", "s", "Tobias Reed", "Nobody")
    assert missing.returncode == 3 and "never writes 'Nobody'" in missing.stderr
    taken = loci(home, "story", "alias", "s", "Tobias Reed", "Pim")
    assert taken.returncode == 4 and "'Pim' is already an entity of its own" in taken.stderr


def test_suggestions_accepted_by_number_and_a_number_not_listed_refused(tmp_path: Path) -> None:
    voyage = (
        "Captain Hawkes stood at the rail of the Gull. The Captain watched the storm, and "
        "Nell Quarry brought him tea. Nell Quarry laughed at the Captain's hat."
    )
    # Written four times, "the Captain" is a suggestion; written often, the import takes it
    # for his (`test_an_epithet_written_often_is_the_one_carriers_in_the_imported_cast`).
    home = imported(tmp_path, "\n\n".join([voyage] * 2), "v")
    listed = loci(home, "story", "suggestions", "v")
    assert listed.returncode == 0 and "1. alias 'Captain Hawkes' 'the Captain'" in listed.stdout
    assert "made so far" not in listed.stdout
    wrong = loci(home, "story", "suggestions", "v", "--accept", "9")
    assert wrong.returncode != 0 and "error (invalid_input): no suggestion 9" in wrong.stderr
    assert "list them again" in wrong.stderr
    accepted = loci(home, "story", "suggestions", "v", "--accept", "1")
    assert accepted.returncode == 0 and "1. applied alias" in accepted.stdout
    assert "1 correction made so far: `loci story corrections v` lists them" in accepted.stdout
    assert "#1: 'the Captain'" in loci(home, "story", "corrections", "v").stdout


def test_an_epithet_written_often_is_the_one_carriers_in_the_imported_cast(tmp_path: Path) -> None:
    # Treasure Island: "the doctor", written 111 times, was a suggestion only; the story's
    # one doctor by name is Dr. Livesey.
    voyage = (
        "Captain Hawkes stood at the rail of the Gull. The Captain watched the storm, and "
        "Nell Quarry brought him tea. Nell Quarry laughed at the Captain's hat."
    )
    home = imported(tmp_path, "\n\n".join([voyage] * 4), "v")
    hawkes = json.loads(loci(home, "story", "character", "v", "the Captain", "--json").stdout)
    assert hawkes["name"] == "Captain Hawkes" and "the Captain" in hawkes["aliases"]
    assert hawkes["mentions"] == 12  # his four names and eight epithets, all the text's
    assert "'the Captain'" not in loci(home, "story", "suggestions", "v").stdout
    # The writer may think otherwise: split off, it stays apart, and undone it is his again.
    split = loci(home, "story", "split", "v", "Captain Hawkes", "the Captain", "--json")
    assert split.returncode == 0 and json.loads(split.stdout)["aliases"] == ["the Captain"]
    listed = json.loads(loci(home, "story", "characters", "v", "--json").stdout)
    kept = next(c for c in listed if c["name"] == "Captain Hawkes")
    assert "the Captain" not in kept["aliases"]
    # Another import into the session counts the epithet in its own text only, and keeps it
    # apart.
    more = tmp_path / "more.txt"
    more.write_text("The Captain laughed. Captain Hawkes went below; the Captain slept.", "utf-8")
    assert loci(home, "story", "import", str(more), "--session", "v").returncode == 0
    alone = json.loads(loci(home, "story", "character", "v", "the Captain", "--json").stdout)
    assert (alone["name"], alone["mentions"]) == ("the Captain", 10)
    assert loci(home, "story", "undo", "v").returncode == 0
    again = json.loads(loci(home, "story", "character", "v", "the Captain", "--json").stdout)
    assert (again["name"], again["mentions"]) == ("Captain Hawkes", 15)


def test_a_suggestion_declined_by_number_is_not_listed_again(tmp_path: Path) -> None:
    voyage = (
        "Captain Hawkes stood at the rail of the Gull. The Captain watched the storm, and "
        "Nell Quarry brought him tea. Nell Quarry laughed at the Captain's hat."
    )
    # Written four times, "the Captain" is a suggestion; written often, the import takes it
    # for his (`test_an_epithet_written_often_is_the_one_carriers_in_the_imported_cast`).
    home = imported(tmp_path, "\n\n".join([voyage] * 2), "v")
    both = loci(home, "story", "suggestions", "v", "--accept", "1", "--decline", "1")
    assert both.returncode != 0 and "accepted or declined, not both" in both.stderr
    declined = loci(home, "story", "suggestions", "v", "--decline", "1")
    assert declined.returncode == 0 and "1. declined alias" in declined.stdout
    assert "'the Captain'" not in loci(home, "story", "suggestions", "v").stdout
    assert "#1: 'the Captain' kept apart" in loci(home, "story", "corrections", "v").stdout
    assert loci(home, "story", "undo", "v").returncode == 0
    assert (
        "1. alias 'Captain Hawkes' 'the Captain'" in loci(home, "story", "suggestions", "v").stdout
    )


def test_a_declined_suggestion_of_a_name_written_once_leaves_it_unconfirmed(
    tmp_path: Path,
) -> None:
    # A tester declined "Mrs. M." (Lady Susan, written once) and saw it listed as a confirmed
    # character: declining says what a name is not, not that it is someone.
    text = (
        "Mrs. Mainwaring came to tea with Lady Susan. Lady Susan smiled at Mrs. Mainwaring.\n\n"
        "Mrs. Mainwaring was angry, and Lady Susan laughed.\n\n"
        "I am afraid Mrs. M. will come home to us again, said Lady Susan."
    )
    home = imported(tmp_path, text, "s")
    listed = loci(home, "story", "suggestions", "s").stdout
    assert "1. merge 'Mrs. Mainwaring' 'Mrs. M.'" in listed
    assert "   1 mention; evidence: I am afraid Mrs. M." in listed
    assert loci(home, "story", "suggestions", "s", "--decline", "1").returncode == 0
    everyone = loci(home, "story", "characters", "s", "--all").stdout
    assert "Mrs. M. [character, not yet confirmed]: 1 mention" in everyone


def test_an_import_into_a_session_another_import_is_filling_is_refused(tmp_path: Path) -> None:
    # Two imports of one book into one session, started at once, each added the whole text.
    from loci.storage.databases.sqlite import SqliteDatabase

    home = imported(tmp_path, "The harbour was quiet. Tobias Reed mended the nets.", "s")
    file = tmp_path / "more.txt"
    file.write_text("Mira Voss sang by the fire.", encoding="utf-8")
    other = SqliteDatabase(home / "loci.db")
    try:
        with other.claim("story-import:s") as held:
            assert held
            refused = loci(home, "story", "import", str(file), "--session", "s")
        assert refused.returncode == 4, refused.stderr
        assert "an import into 's' is running already" in refused.stderr
        assert "Mira" not in loci(home, "story", "export", "s").stdout  # nothing added
    finally:
        other.close()
    done = loci(home, "story", "import", str(file), "--session", "s")  # the claim let go
    assert done.returncode == 0 and "Mira" in loci(home, "story", "export", "s").stdout


def test_the_cast_listing_counts_the_names_it_does_not_show(tmp_path: Path) -> None:
    scenes = [
        "Mr. Tobias Reed came in. Tobias Reed sat down.",
        "Tobias laughed, and Reed said nothing.",
        "Mr. Reed bowed. Mr. T. Reed signed the book.",
        "Old Reed slept. Tobias smiled.",
        "Master Tobias Reed ran home.",
    ]
    text = "\n\n".join(f"{scene} ({n})" for n, scene in enumerate(scenes * 3))
    home = imported(tmp_path, text, "reed")
    listed = loci(home, "story", "characters", "reed").stdout
    shown = json.loads(loci(home, "story", "characters", "reed", "--json").stdout)[0]
    hidden = len(shown["aliases"]) - 1 - ALIASES_LISTED
    assert hidden > 0 and f"and {hidden} more)" in listed


def test_the_whole_cast_lists_every_name_with_its_kind(tmp_path: Path) -> None:
    # A tester could not find "Katyusha" (no kind yet) or a name met once: only confirmed
    # characters were listed.
    scenes = [
        '"Come here, Katya," said Anna Petrovna. Katya came in from the garden.',
        "Katya laughed at the snow in Menton, and Anna Petrovna smiled at her.",
    ]
    text = "\n\n".join(f"{scene} ({n})" for n, scene in enumerate(scenes * 3))
    text += "\n\nOnce, long ago, Ivan Sergeyevich had bought the house in Menton."
    home = imported(tmp_path, text, "villa")
    confirmed = loci(home, "story", "characters", "villa").stdout
    assert "Katya" in confirmed and "Ivan Sergeyevich" not in confirmed
    every = loci(home, "story", "characters", "villa", "--all").stdout
    assert "Katya [character]" in every and "Menton [place]" in every
    assert "Ivan Sergeyevich [character, not yet confirmed]: 1 mention" in every
    listed = json.loads(loci(home, "story", "characters", "villa", "--all", "--json").stdout)
    assert {"character", "place"} <= {e["kind"] for e in listed}
    assert any(not e["confirmed"] for e in listed)
    cut = loci(home, "story", "characters", "villa", "--all", "--limit", "2")
    total = len(listed)
    assert len(cut.stdout.splitlines()) == 2
    assert f"the first 2 of {total} shown; --limit {total} shows them all" in cut.stderr
    # A long novel names more than a thousand: the limit has no ceiling of its own.
    assert loci(home, "story", "characters", "villa", "--all", "--limit", "5000").returncode == 0
    assert "shown" not in loci(home, "story", "characters", "villa", "--all").stderr
    both = loci(home, "story", "characters", "villa", "--all", "--places")
    assert both.returncode == 2 and "cannot be used together" in both.stderr


def test_a_newcomers_story_imports_with_the_names_it_says_are_one_and_fit_suggestions(
    tmp_path: Path,
) -> None:
    # A newcomer's own story: "His name was Silas Penhallow, but the whole quay called him
    # Tallow" (named once, then Tallow 24 times) stayed two people, and "Mr. Gale" (the
    # father, "Mr. Thomas Gale" six times; the son "Mr. Edmund Gale" once) was offered to the
    # son, whose company it keeps.
    text = (Path(__file__).parent.parent / "fixtures" / "harrowby.txt").read_text("utf-8")
    home = imported(tmp_path, text, "h", "--keep-suggestions")
    kept = loci(
        home, "story", "import", str(tmp_path / "novel.txt"), "--session", "k", "--keep-suggestions"
    )
    assert "no suggestion accepted (--keep-suggestions): `loci story suggestions k`" in kept.stdout
    assert loci(home, "story", "corrections", "h").stdout.startswith("no corrections")
    cast = json.loads(loci(home, "story", "characters", "h", "--json").stdout)
    aliases = {c["name"]: set(c["aliases"]) for c in cast}
    assert {"Tallow", "Silas Penhallow"} <= aliases["Tallow"]
    assert {"Clara", "Mrs. Merrow"} <= next(a for a in aliases.values() if "Clara" in a)
    assert "the Duke" in aliases  # a title said alone of someone, speaking
    offered = json.loads(loci(home, "story", "suggestions", "h", "--json").stdout)
    pairs = {frozenset({s["name"], s["other"]}) for s in offered["suggestions"]}
    assert frozenset({"Mr. Gale", "Mr. Thomas Gale"}) in pairs
    assert not any("Mr. Gale" in pair and "Edmund Gale" in pair for pair in pairs)
    assert frozenset({"Anna", "Anna Brook"}) in pairs


def test_an_import_accepts_the_merges_loci_is_sure_of_as_its_own_undoable_corrections(
    tmp_path: Path,
) -> None:
    # The suggestions of a book nobody corrected were all left to the writer: on a held-out
    # novel, "Mary" (81 mentions, named with the Rivers family in 43 sentences) stayed apart
    # from "Mary Rivers" until the writer accepted it.
    home, file = tmp_path / "home", tmp_path / "novel.txt"
    file.write_text(
        (Path(__file__).parent.parent / "fixtures" / "harrowby.txt").read_text("utf-8"), "utf-8"
    )
    done = loci(home, "story", "import", str(file), "--session", "h")
    assert done.returncode == 0
    assert "accepted 2 suggestions of the cast loci is sure of" in done.stdout
    assert "  #2: 'Mr. Gale' merged into 'Mr. Thomas Gale': " in done.stdout
    cast = json.loads(loci(home, "story", "characters", "h", "--json").stdout)
    gale = next(c for c in cast if "Mr. Thomas Gale" in c["aliases"])
    assert "Mr. Gale" in gale["aliases"] and "Edmund Gale" not in gale["aliases"]
    listed = loci(home, "story", "corrections", "h").stdout.splitlines()
    assert listed == [
        "#1: 'Anna Brook' merged into 'Anna' by loci, a suggestion it was sure of, accepted "
        "at import",
        "#2: 'Mr. Gale' merged into 'Mr. Thomas Gale' by loci, a suggestion it was sure of, "
        "accepted at import",
    ]
    assert loci(home, "story", "suggestions", "h", "--json").stdout.count('"action"') == 0
    # The writer takes one back as their own: it is offered again, and more text imported
    # into a cast someone has corrected accepts nothing.
    assert loci(home, "story", "undo", "h", "2").returncode == 0
    offered = json.loads(loci(home, "story", "suggestions", "h", "--json").stdout)
    assert [(s["name"], s["other"]) for s in offered["suggestions"]] == [
        ("Mr. Thomas Gale", "Mr. Gale")
    ]
    more = tmp_path / "more.txt"
    more.write_text("Mr. Gale walked to the quay with Anna.\n", "utf-8")
    again = loci(home, "story", "import", str(more), "--session", "h")
    assert again.returncode == 0 and "accepted" not in again.stdout
    assert len(loci(home, "story", "corrections", "h").stdout.splitlines()) == 1


def test_a_plot_thread_is_listed_with_its_events_counted_in_words(tmp_path: Path) -> None:
    # A writer's trial read "(detected, 1 events)".
    home, file = tmp_path / "home", tmp_path / "vow.txt"
    file.write_text("Mira Voss had solemnly vowed to find the stolen compass.\n", "utf-8")
    assert loci(home, "story", "import", str(file), "--session", "v").returncode == 0
    listed = loci(home, "story", "threads", "v").stdout.splitlines()
    assert listed == ["[active] Mira Voss's vow: find the stolen compass (detected, 1 event)"]
