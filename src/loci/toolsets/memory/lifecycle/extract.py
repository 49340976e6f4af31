"""`extract`: the memories worth keeping in a text (a conversation, notes, a meeting).

The text is read line by line (a line may start with its speaker, "Ana: ..."), each line
sentence by sentence; `cues` says what each sentence is and how important. What passes
`min_importance` and the asked types is embedded once, compared with the memories already
stored (a near-duplicate is skipped, see `duplicates.likeness`) and stored whole, with its
speaker. Every sentence left out is reported with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loci import fields
from loci.engine.search.engine import MemoryEngine
from loci.errors import InvalidInputError
from loci.storage.databases.db import Database
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.lifecycle.cues import TYPES, LineContext, Reading, read_sentence
from loci.toolsets.memory.lifecycle.duplicates import likeness, prepare, sentence_key, sentences
from loci.toolsets.memory.lifecycle.models import (
    SKIPS_LISTED,
    ExtractedItem,
    ExtractResult,
    SkippedSentence,
)
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.service import MemoryService

#: "Name: text" at the start of a line names its speaker.
_SPEAKER = re.compile(r"^\s*([A-Z][\w .'-]{0,40}?):\s+(.+)$")
#: How alike a new sentence and a stored memory must be to skip the sentence.
DUPLICATE_LIKENESS = 0.9
#: Characters of a source line shown with an extracted item.
SNIPPET_CHARS = 200
#: How many times a memory's largest content `extract` reads in one call.
TEXT_TIMES_CONTENT = 4


@dataclass(frozen=True)
class _Candidate:
    line: int
    speaker: str | None
    sentence: str
    source: str
    reading: Reading

    @property
    def content(self) -> str:
        return f"{self.speaker}: {self.sentence}" if self.speaker else self.sentence


class ExtractService:
    """Finds, checks and stores the memories of a text."""

    def __init__(self, db: Database, engine: MemoryEngine, memory: MemoryService) -> None:
        self._db = db
        self._engine = engine
        self._memory = memory

    def extract(
        self,
        text: str,
        namespace: str = "default",
        min_importance: float = 0.3,
        types: Sequence[str] = TYPES,
    ) -> ExtractResult:
        """Store the memorable sentences of `text` in `namespace`; say why the others were not."""
        text = fields.content(
            text,
            self._engine.limits.max_content_bytes * TEXT_TIMES_CONTENT,
            "text",
            setting=f"{TEXT_TIMES_CONTENT} x LOCI_MAX_CONTENT_BYTES",
        )
        namespace = fields.namespace(namespace)
        min_importance = fields.unit_float(min_importance, "min_importance")
        wanted = _types(types)
        kept: list[_Candidate] = []
        skipped: list[SkippedSentence] = []
        for candidate in _read(text):
            reason = _refusal(candidate.reading, wanted, min_importance)
            if reason is None:
                kept.append(candidate)
            else:
                skipped.append(_skip(candidate, reason))
        stored, duplicates = self._store_new(kept, namespace)
        skipped += duplicates
        skipped.sort(key=lambda item: item.line)
        return ExtractResult(
            extracted=stored,
            total_extracted=len(stored),
            skipped=len(skipped),
            skipped_items=skipped[:SKIPS_LISTED],
            text_length=len(text),
        )

    def _store_new(
        self, kept: list[_Candidate], namespace: str
    ) -> tuple[list[ExtractedItem], list[SkippedSentence]]:
        if not kept:
            return [], []
        vectors = self._engine.embed([c.content for c in kept])
        with self._db.locked() as conn:
            stored_before = sql.namespace_exists(conn, namespace)
        fresh: list[int] = []
        skipped: list[SkippedSentence] = []
        seen: dict[str, int] = {}
        for number, candidate in enumerate(kept):
            key = sentence_key(candidate.content)
            if key in seen:
                skipped.append(_skip(candidate, f"repeats line {kept[seen[key]].line}"))
                continue
            seen[key] = number
            twin = (
                self._stored_twin(candidate.content, vectors[number], namespace)
                if stored_before
                else None
            )
            if twin is not None:
                skipped.append(_skip(candidate, f"near-duplicate of memory {twin}"))
                continue
            fresh.append(number)
        drafts = [_draft(kept[n], namespace) for n in fresh]
        ids = self._memory.remember_embedded(drafts, vectors[fresh])
        items = [_item(kept[n], memory_id) for n, memory_id in zip(fresh, ids, strict=True)]
        return items, skipped

    def _stored_twin(self, content: str, vector: np.ndarray, namespace: str) -> str | None:
        """The id of a stored memory of `namespace` this content nearly duplicates, if any."""
        allowed = Allowed(namespaces=frozenset({namespace}))
        hits = self._engine.index().search(vector.reshape(1, -1), 1, allowed)
        if not hits or hits[0].similarity < DUPLICATE_LIKENESS - 0.15:
            return None
        with self._db.locked() as conn:
            rows = sql.rows_by_seq(conn, [hits[0].key])
        row = rows.get(hits[0].key)
        if row is None:
            return None
        if (
            likeness(hits[0].similarity, prepare(str(row[2])), prepare(content))
            < DUPLICATE_LIKENESS
        ):
            return None
        return str(row[1])


def _types(types: Sequence[str]) -> frozenset[str]:
    unknown = [t for t in types if t not in TYPES]
    if unknown or not types:
        raise InvalidInputError(
            f"types must be some of {', '.join(TYPES)}"
            + (f"; not {unknown[0]!r}" if unknown else ""),
            field="types",
        )
    return frozenset(types)


def _read(text: str) -> list[_Candidate]:
    """Every sentence of the text with its reading, in order."""
    lines = text.splitlines()
    speakers = frozenset(m.group(1) for line in lines if (m := _SPEAKER.match(line)))
    found: list[_Candidate] = []
    asked = False
    for number, line in enumerate(lines, start=1):
        match = _SPEAKER.match(line)
        speaker, said = (match.group(1), match.group(2)) if match else (None, line)
        if not said.strip():
            continue
        context = LineContext(len(said.split()), asked, speakers)
        for sentence in sentences(said):
            found.append(
                _Candidate(number, speaker, sentence, line, read_sentence(sentence, context))
            )
        asked = "?" in said
    return found


def _refusal(reading: Reading, wanted: frozenset[str], min_importance: float) -> str | None:
    if reading.reason is not None:
        return reading.reason
    if reading.type not in wanted:
        return f"a {reading.type}, not among the types asked"
    if reading.importance < min_importance:
        return f"importance {reading.importance} below {min_importance}"
    return None


def _skip(candidate: _Candidate, reason: str) -> SkippedSentence:
    return SkippedSentence(text=candidate.sentence, reason=reason, line=candidate.line)


def _draft(candidate: _Candidate, namespace: str) -> MemoryDraft:
    metadata: dict[str, object] = {"type": candidate.reading.type, "line": candidate.line}
    if candidate.speaker:
        metadata["speaker"] = candidate.speaker
    return MemoryDraft(
        content=candidate.content,
        namespace=namespace,
        tags=[candidate.reading.type],
        importance=candidate.reading.importance,
        source="extract",
        metadata=metadata,
    )


def _item(candidate: _Candidate, memory_id: str) -> ExtractedItem:
    return ExtractedItem(
        id=memory_id,
        content=candidate.content,
        type=candidate.reading.type,
        importance=candidate.reading.importance,
        source_snippet=candidate.source.strip()[:SNIPPET_CHARS],
        line=candidate.line,
    )
