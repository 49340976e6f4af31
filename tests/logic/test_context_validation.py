"""Context-file validation and guidance: every rule with a failing and a passing document."""

import pytest

from loci.toolsets.context.guidance import guidance_for
from loci.toolsets.context.markdown import parse
from loci.toolsets.context.templates import load_templates
from loci.toolsets.context.validate import validate

TEMPLATES = load_templates(None).templates
MENTAL = TEMPLATES["mental_model"]
BUGS = TEMPLATES["bugs"]
SESSION = TEMPLATES["session_summary"]

OVERVIEW = (
    "Shopkeeper is an inventory service for small shops, used by their staff through a web app. "
    "It is written in Go with a PostgreSQL database."
)
GOOD = f"""# Mental Model

## Overview

{OVERVIEW}

## Architecture

- A web front end talks to the Go API over JSON.
- The API keeps stock in PostgreSQL and sends events to a queue.

## Key Components

- `api/stock.go`: stock levels and reservations.
- `api/events.go`: the event publisher.

## Key Decisions

| Decision | Rationale |
| --- | --- |
| PostgreSQL over MySQL | Row-level locks for reservations |
"""


def types_of(text, template=MENTAL):
    return [issue.type for issue in validate(text, template).issues]


def replace_section(text, title, body):
    """GOOD with one section's body swapped (the section keeps its heading)."""
    head, rest = text.split(f"## {title}\n", 1)
    after = rest.split("\n## ", 1)
    tail = f"\n## {after[1]}" if len(after) > 1 else ""
    return f"{head}## {title}\n\n{body}\n{tail}"


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_every_template_example_passes_its_template(name):
    template = TEMPLATES[name]
    result = validate(template.example(), template)
    assert result.valid, result.issues
    assert result.confidence() == 1.0


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_every_skeleton_fails_with_placeholders(name):
    template = TEMPLATES[name]
    result = validate(template.skeleton(), template)
    assert not result.valid
    assert "placeholder" in {issue.type for issue in result.issues}


def test_a_good_document_passes():
    assert validate(GOOD, MENTAL).valid


def test_missing_section_fails_and_present_passes():
    without = GOOD.replace("## Key Components", "## Other Notes")
    assert types_of(without) == ["missing_section"]
    assert types_of(GOOD) == []


def test_optional_sections_may_be_left_out():
    assert "Open Questions" not in GOOD and validate(GOOD, MENTAL).valid


def test_section_names_match_case_and_punctuation_insensitively():
    shouted = GOOD.replace("## Key Decisions", "## KEY-decisions:")
    assert validate(shouted, MENTAL).valid
    assert validate(GOOD.replace("## Key Decisions", "## Design Decisions"), MENTAL).valid


def test_duplicate_sections_fail():
    doubled = GOOD + "\n## Architecture\n\n- A second list of layers that repeats the first.\n"
    assert types_of(doubled) == ["duplicate_section"]


def test_empty_section_fails():
    assert types_of(replace_section(GOOD, "Architecture", "")) == ["empty_section"]


def test_short_section_fails_and_long_enough_passes():
    assert types_of(replace_section(GOOD, "Overview", "An inventory service.")) == ["too_short"]
    assert types_of(replace_section(GOOD, "Overview", OVERVIEW)) == []


def test_list_required_but_prose_given():
    prose = "A web front end talks to the API. The API keeps stock in PostgreSQL and more."
    result = validate(replace_section(GOOD, "Architecture", prose), MENTAL)
    assert [i.type for i in result.issues] == ["format_error"]
    assert "should be a Markdown list" in result.issues[0].message
    assert "it is prose" in result.issues[0].message


def test_table_required_but_list_given():
    listed = "- PostgreSQL over MySQL: row-level locks\n- Go: one static binary"
    result = validate(replace_section(GOOD, "Key Decisions", listed), MENTAL)
    assert [i.type for i in result.issues] == ["format_error"]
    assert "a list" in result.issues[0].message


def test_table_missing_columns_and_table_without_rows():
    narrow = "| Decision |\n| --- |\n| PostgreSQL over MySQL |"
    result = validate(replace_section(GOOD, "Key Decisions", narrow), MENTAL)
    assert result.issues[0].detail == ("Rationale",)
    assert "lacks the column(s) Rationale" in result.issues[0].message
    header_only = "| Decision | Rationale |\n| --- | --- |"
    empty_table = validate(replace_section(GOOD, "Key Decisions", header_only), MENTAL)
    assert "no rows" in empty_table.issues[0].message


def test_structured_section_needs_its_keys_and_pattern():
    good = SESSION.example()
    assert validate(good, SESSION).valid
    no_goal = good.replace("- **Goal**: Make recall faster on stores of 100k memories\n", "")
    assert types_of(no_goal, SESSION) == ["format_error"]
    bad_date = good.replace("2026-11-22", "last Tuesday")
    assert types_of(bad_date, SESSION) == ["pattern_mismatch"]


@pytest.mark.parametrize(
    "filler",
    [
        "TODO: describe the layers",
        "- TBD",
        "Lorem ipsum dolor sit amet, consectetur adipiscing.",
        "- ...",
    ],
)
def test_placeholders_fail(filler):
    body = f"- A web front end talks to the Go API over JSON.\n\n{filler}"
    assert "placeholder" in types_of(replace_section(GOOD, "Architecture", body))


def test_template_instructions_left_in_fail():
    purpose = MENTAL.sections[1].purpose
    body = f"<!-- {purpose} -->\n- A web front end talks to the Go API over JSON, to the stock API."
    assert types_of(replace_section(GOOD, "Architecture", body)) == ["placeholder"]


def test_todo_inside_code_is_not_a_placeholder():
    body = "- The API publishes stock events to the queue, one per change.\n\n```go\n// TODO: batch\n```"
    assert types_of(replace_section(GOOD, "Architecture", body)) == []


def test_first_level_one_heading_is_the_title_not_a_section():
    document = parse("# Features\n\n## Overview\n\ntext\n")
    assert [(s.title, s.level) for s in document.sections] == [("Features", 1), ("Overview", 2)]
    features = TEMPLATES["features"]
    assert validate(features.example(), features).valid  # "# Features" is also an alias


def test_documents_with_only_level_one_headings_still_have_sections():
    flat = GOOD.replace("## ", "# ").replace("# Mental Model\n", "")
    assert validate(flat, MENTAL).valid


def test_confidence_rises_as_problems_are_fixed():
    poor = validate("# Mental Model\n\n## Overview\n\nTODO\n", MENTAL).confidence()
    better = validate(GOOD.replace("## Key Components", "## Other"), MENTAL).confidence()
    assert 0.0 <= poor < better < 1.0


def test_guidance_leads_with_the_structure_and_quotes_the_author():
    text = replace_section(GOOD, "Key Decisions", "- PostgreSQL over MySQL: row-level locks")
    text = replace_section(text, "Overview", "TBD")
    text = text.replace("## Key Components", "## Other")
    result = validate(text, MENTAL)
    guidance = guidance_for(result, 1, 3)
    assert guidance.primary_issue.startswith('The required section "Key Components" is missing')
    steps = "\n".join(guidance.step_by_step_fix)
    assert 'Add a "## Key Components" section after "## Architecture"' in steps
    assert 'replace "TBD" (line 5)' in steps
    assert "columns Decision | Rationale" in steps
    assert guidance.step_by_step_fix[-1].endswith("with the whole corrected document.")
    # The example fix turns the author's list item into the table row asked for.
    assert "| PostgreSQL over MySQL | row-level locks |" in guidance.example_fix
    assert "## Key Components" in guidance.template_to_follow
    assert "attempt 1 of 3" in guidance.retry_instructions
    assert "Keep the sections that already pass (Architecture)" in guidance.retry_instructions


def test_guidance_adds_missing_columns_to_the_authors_table():
    narrow = "| Decision |\n| --- |\n| PostgreSQL over MySQL |"
    guidance = guidance_for(validate(replace_section(GOOD, "Key Decisions", narrow), MENTAL), 2, 3)
    assert "| Decision | Rationale |" in guidance.example_fix
    assert "| PostgreSQL over MySQL | <fill in> |" in guidance.example_fix
    assert "Add the column(s) Rationale" in guidance.step_by_step_fix[0]


def test_guidance_on_the_last_attempt_offers_force():
    result = validate("# Known Bugs\n\n## Open Bugs\n\n- crash on start\n", BUGS)
    assert "force=true" in guidance_for(result, 3, 3).retry_instructions


def test_guidance_blanks_only_the_placeholder_sentence_or_cell():
    text = replace_section(GOOD, "Overview", f"{OVERVIEW} TODO: name the queue.")
    fix = guidance_for(validate(text, MENTAL), 1, 3).example_fix
    assert f"{OVERVIEW} <fill in>" in fix
    table = "| Decision | Rationale |\n| --- | --- |\n| PostgreSQL over MySQL | TBD |"
    fix = guidance_for(validate(replace_section(GOOD, "Key Decisions", table), MENTAL), 1, 3)
    assert "| PostgreSQL over MySQL | <fill in> |" in fix.example_fix
