"""Context files: validation and update_context, as ratios to their bare work in the same run.

- validation of a ~20 KB document that fails its template (guidance included) against the bare
  markdown-it-py parse of the same document;
- update_context end to end (validate, save the version and the Markdown file, index in
  memory) against the bare embedding of the texts the document is indexed as, both when every
  section is rewritten and when one sentence is edited (unchanged text keeps its vectors).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

from loci.app import build_app
from loci.settings import load_settings
from loci.toolsets.context.guidance import guidance_for
from loci.toolsets.context.indexing import drafts_for
from loci.toolsets.context.markdown import parse
from loci.toolsets.context.validate import validate

NOVELS = Path(__file__).resolve().parents[2] / "shared" / "eval" / "novels"
TARGET_BYTES = 20 * 1024


def sentences() -> list[str]:
    text = (NOVELS / "pride-and-prejudice.txt").read_text(encoding="cp1252")
    found = [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", text)]
    return [s.replace("|", "/") for s in found if 8 <= len(s.split()) <= 30]


def document(lines: list[str], valid: bool, salt: int = 0) -> str:
    """A mental_model document of about TARGET_BYTES, made of real prose."""
    parts = ["# Mental Model\n", "## Overview\n", " ".join(lines[:6]) + f" (revision {salt})\n"]
    parts.append("## Architecture\n")
    parts += [f"- {line}" for line in lines[6:60]]
    parts.append("\n## Key Components\n")
    parts += [f"- `module_{n}.py`: {line}" for n, line in enumerate(lines[60:110])]
    parts.append("\n## Key Decisions\n\n| Decision | Rationale |\n| --- | --- |")
    parts += [f"| {a} | {b} |" for a, b in zip(lines[110:200:2], lines[111:200:2], strict=False)]
    if not valid:  # a placeholder and a list where the table should be
        parts[2] = "TODO: describe the project.\n"
        parts.append("\n## Open Questions\n\nWe are not sure yet. TBD.\n")
    text = "\n".join(parts) + "\n"
    while len(text.encode()) > TARGET_BYTES:
        parts.pop(-2 if not valid else -3)
        text = "\n".join(parts) + "\n"
    return text


def p50(values: list[float]) -> float:
    return statistics.median(values)


def timed(fn, repeat: int) -> list[float]:
    fn()
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def bench_validation(app, lines: list[str], repeat: int) -> dict[str, float]:
    text = document(lines, valid=False)
    template = app.context.templates.get("mental_model")
    parser = MarkdownIt("commonmark").enable("table")

    def checked() -> None:
        result = validate(text, template)
        assert not result.valid
        guidance_for(result, 1, 3)

    bare = timed(lambda: parser.parse(text), repeat)
    ours = timed(checked, repeat)
    ratio = p50(ours) / p50(bare)
    print(
        f"validation of {len(text.encode()) / 1024:.1f} KB with guidance: p50 {p50(ours):.2f} ms; "
        f"bare markdown parse p50 {p50(bare):.2f} ms; ratio {ratio:.2f} (target <= 3)"
    )
    return {"validation_ms": p50(ours), "parse_ms": p50(bare), "validation_ratio": ratio}


def bench_update(app, lines: list[str], repeat: int, rewrite: bool) -> dict[str, float]:
    """Every section rewritten (rewrite) or one sentence edited, on each save."""
    folder = app.settings.home / ("rewritten" if rewrite else "edited")  # an existing folder
    folder.mkdir(exist_ok=True)
    project = app.context.init_project(str(folder)).project_id
    template = app.context.templates.get("mental_model")
    docs = [
        document(lines[n:] if rewrite else lines, valid=True, salt=n) for n in range(repeat + 1)
    ]
    texts = [
        [d.content for d in drafts_for(parse(doc), template, project, "mental_model")]
        for doc in docs
    ]
    ours, bare = [], []
    for doc, chunk_texts in zip(docs, texts, strict=True):
        started = time.perf_counter()
        app.embedder.embed(chunk_texts)
        bare.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        result = app.context.update_context(project, "mental_model", doc)
        ours.append((time.perf_counter() - started) * 1000)
        assert result.status == "success", result.validation_errors
    ours, bare = ours[1:], bare[1:]  # the first call also builds the vector index
    ratio = p50(ours) / p50(bare)
    kind = "every section rewritten" if rewrite else "one sentence edited"
    print(
        f"update_context of {len(docs[0].encode()) / 1024:.1f} KB ({len(texts[0])} memories, "
        f"{kind}): p50 {p50(ours):.1f} ms; bare embedding of its memories p50 "
        f"{p50(bare):.1f} ms; ratio {ratio:.2f} (target <= 1.5)"
    )
    name = "rewrite" if rewrite else "edit"
    return {f"{name}_ms": p50(ours), f"{name}_embed_ms": p50(bare), f"{name}_ratio": ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    lines = sentences()
    with tempfile.TemporaryDirectory() as home:
        app = build_app(load_settings(home=Path(home)))
        try:
            app.embedder.load()
            figures = bench_validation(app, lines, args.repeat * 5)
            figures |= bench_update(app, lines, args.repeat, rewrite=True)
            figures |= bench_update(app, lines, args.repeat, rewrite=False)
        finally:
            app.close()
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
