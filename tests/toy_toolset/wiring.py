"""How the toy toolset's service is built from the engine."""

from __future__ import annotations

from loci.app import App, Core
from tests.toy_toolset.board import Board


def build(core: Core) -> Board:
    """The store's pinboard."""
    return Board(core.db)


def board(app: App) -> Board:
    """The pinboard `build` made for `app`."""
    return app.part("toy", Board)
