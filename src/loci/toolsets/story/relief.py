"""Relief: when the window passes its threshold, its oldest whole units go to the archive."""

from __future__ import annotations

import time

from loci.storage.databases.db import Connection
from loci.token_count import TokenCounter
from loci.toolsets.story import store, valve
from loci.toolsets.story.models import ArchivedChunk

PREVIEW_CHARS = 120


def relieve_if_needed(
    conn: Connection, found: store.Session, counter: TokenCounter
) -> list[ArchivedChunk]:
    """Count the window; past its trigger, archive its oldest whole units in chunks until it
    is down to its target, and record the relief. Returns the chunks archived."""
    began = time.perf_counter()
    window = store.stream(conn, found.id, found.window_start)
    found.window_tokens = counter.count(window)
    settings = found.settings
    if found.window_tokens <= settings.relief_trigger:
        return []
    before = found.window_tokens
    units = valve.units(window, found.window_start, counter, settings.chunk_tokens)
    cuts = valve.plan_relief(units, before, settings.relief_target, settings.chunk_tokens)
    if not cuts:
        return []
    relief = store.add_relief(conn, found, before, len(cuts))
    archived: list[ArchivedChunk] = []
    for cut in cuts:
        content = window[cut.start - found.window_start : cut.end - found.window_start]
        chunk_id = store.add_chunk(
            conn, found.id, relief, (cut.start, cut.end), cut.tokens, content
        )
        archived.append(
            ArchivedChunk(
                chunk_id=chunk_id,
                tokens=cut.tokens,
                start=cut.start,
                end=cut.end,
                preview=" ".join(content[:PREVIEW_CHARS].split()),
            )
        )
    rest = window[cuts[-1].end - found.window_start :]
    found.window_start = cuts[-1].end
    found.window_tokens = counter.count(rest)
    store.finish_relief(conn, relief, found.window_tokens, time.perf_counter() - began)
    return archived
