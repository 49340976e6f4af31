"""The CLI's text output: counts read as English, name / value lines in one column."""

import pytest

from loci.faces.cli.output import emit_fields
from loci.wording import counted


@pytest.mark.parametrize(
    ("count", "memories", "sessions"),
    [
        (0, "0 memories", "0 sessions"),
        (1, "1 memory", "1 session"),
        (2, "2 memories", "2 sessions"),
    ],
)
def test_counts_take_the_singular_for_one(count: int, memories: str, sessions: str) -> None:
    assert counted(count, "memory", "memories") == memories
    assert counted(count, "session") == sessions


def test_fields_share_one_column_and_mappings_read_as_pairs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    emit_fields({"total": 3, "namespaces": {"default": 2, "people": 1}, "tags": {}, "x": None})
    assert capsys.readouterr().out.splitlines() == [
        "total       3",
        "namespaces  default 2, people 1",
        "tags        none",
        "x           none",
    ]


def test_every_command_but_serve_takes_json() -> None:
    """The README says so: scripts can rely on it."""
    import click

    from loci.faces.cli.main import commands

    cli = commands()

    def without_json(command: click.Command, name: str) -> list[str]:
        if isinstance(command, click.Group):
            return [
                missing
                for sub, child in command.commands.items()
                for missing in without_json(child, f"{name} {sub}")
            ]
        options = {option for param in command.params for option in getattr(param, "opts", [])}
        return [] if "--json" in options else [name]

    assert without_json(cli, "loci") == ["loci serve", "loci ui"]  # the two servers
