"""Checkpoints: save, load, classification, compression and listing, against their bare work.

Baselines run in the same process on the same data: for a save, `json.dumps` + zstd + an
fsync'd atomic file write (temporary file, fsync, rename); for a load, read + decompress +
`json.loads`; for listing, the bare indexed SQLite query for the same rows.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import zstandard

import checkpoint_corpus
from loci.app import build_app
from loci.settings import load_settings
from loci.toolsets.checkpoints import codec
from loci.toolsets.checkpoints.classify import _by_name, classify
from loci.toolsets.checkpoints.codec import shipped_dictionary

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "checkpoint_contexts.json"
TARGET_BYTES = 100 * 1024


def examples() -> list[dict]:
    return [item["context"] for item in json.loads(FIXTURES.read_text(encoding="utf-8"))]


def context_of_100kb(contexts: list[dict]) -> dict:
    """The example contexts side by side under their own keys, until about 100 KB."""
    context: dict = {"goal": "Carry the release workflow across chats.", "round": 0}
    n = 0
    while len(json.dumps(context).encode()) < TARGET_BYTES:
        context[f"workstream_{n}"] = copy.deepcopy(contexts[n % len(contexts)])
        n += 1
    return context


def p50(values: list[float]) -> float:
    return statistics.median(values)


def timed(work, repeat: int) -> list[float]:
    out = []
    for n in range(repeat):
        started = time.perf_counter()
        work(n)
        out.append((time.perf_counter() - started) * 1000)
    return out


def bare_save(folder: Path, context: dict) -> Path:
    """The work a save cannot skip: serialise, compress with loci's codec (zstd or primed
    PPMd, by size), an fsync'd atomic file write."""
    level = load_settings().checkpoint_zstd_level
    data = codec.pack(codec.to_json(context), level, None)
    target = folder / "bare.blob"
    temporary = folder / ".bare.tmp"
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, target)
    return target


def bare_load(path: Path) -> dict:
    return json.loads(codec.unpack_document(path.read_bytes(), None, "bare", 1 << 30))


def zstd_only(document: bytes, repeat: int) -> tuple[float, float]:
    """(ratio, load ms) of the same document with zstd and the shipped dictionary alone."""
    level = load_settings().checkpoint_zstd_level
    compressed = zstandard.ZstdCompressor(level=level, dict_data=shipped_dictionary()).compress(
        document
    )
    decompressor = zstandard.ZstdDecompressor(dict_data=shipped_dictionary())
    load = timed(lambda n: json.loads(decompressor.decompress(compressed)), repeat)
    return len(document) / len(compressed), p50(load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    contexts = examples()
    big = context_of_100kb(contexts)
    size = len(json.dumps(big).encode())
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"
        app = build_app(load_settings(home=home))
        try:
            figures |= bench_save_load(app, big, size, Path(scratch), args.repeat)
            figures |= bench_classify(big, args.repeat)
            figures |= bench_ratio(app, contexts)
            figures |= bench_realistic(app)
            figures |= bench_listing(app, home, args.repeat)
        finally:
            app.close()
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


def bench_save_load(app, big: dict, size: int, scratch: Path, repeat: int) -> dict[str, float]:
    def variant(n: int) -> dict:
        return {**big, "round": n}

    bare_path = bare_save(scratch, big)
    base_save = timed(lambda n: bare_save(scratch, variant(n)), repeat)
    ids: list[str] = []
    ours_save = timed(
        lambda n: ids.append(app.checkpoints.save(variant(n), "bench").checkpoint_id), repeat
    )
    base_load = timed(lambda n: bare_load(bare_path), repeat)
    ours_load = timed(lambda n: app.checkpoints.load(checkpoint_id=ids[n]), repeat)
    save_ratio, load_ratio = p50(ours_save) / p50(base_save), p50(ours_load) / p50(base_load)
    print(
        f"save of a {size / 1024:.0f} KB context: p50 {p50(ours_save):.2f} ms; bare dumps + "
        f"compression + fsync'd write p50 {p50(base_save):.2f} ms; ratio {save_ratio:.2f} (target <= 2; "
        "spec ceiling 100 ms)"
    )
    print(
        f"load: p50 {p50(ours_load):.2f} ms; bare read + decompress + loads p50 "
        f"{p50(base_load):.2f} ms; ratio {load_ratio:.2f} (target <= 2; spec ceiling 500 ms)"
    )
    zstd_ratio, zstd_load = zstd_only(codec.to_json(big), repeat)
    print(
        f"  the codec: primed PPMd {size / bare_path.stat().st_size:.2f}x, loads in "
        f"{p50(base_load):.2f} ms; zstd with the same dictionary {zstd_ratio:.2f}x in "
        f"{zstd_load:.2f} ms"
    )
    return {
        "save_ms": p50(ours_save),
        "save_baseline_ms": p50(base_save),
        "save_ratio": save_ratio,
        "load_ms": p50(ours_load),
        "load_baseline_ms": p50(base_load),
        "load_ratio": load_ratio,
    }


def bench_classify(big: dict, repeat: int) -> dict[str, float]:
    def cold(n: int) -> None:
        _by_name.cache_clear()  # as if every key name were new to this process
        classify(big)

    times = timed(cold, repeat)
    warm = timed(lambda n: classify(big), repeat)
    print(
        f"classification of the same context: p50 {p50(times):.2f} ms with no key name seen "
        f"before, {p50(warm):.2f} ms with known names (target <= 2; spec 10)"
    )
    return {"classify_ms": p50(times), "classify_warm_ms": p50(warm)}


def bench_ratio(app, contexts: list[dict]) -> dict[str, float]:
    raw = stored = 0
    for n, context in enumerate(contexts):
        result = app.checkpoints.save(context, f"ratio-{n}")
        raw += result.size_bytes
        stored += result.stored_bytes
    ratio = raw / stored
    print(
        f"compression of the {len(contexts)} example contexts: {raw} -> {stored} bytes, "
        f"ratio {ratio:.2f} (target >= 5)"
    )
    return {"compression_ratio": ratio}


def bench_realistic(app, sessions: int = 5) -> dict[str, float]:
    """Agent states built from public text (`checkpoint_corpus.py`, the half the shipped
    dictionary never saw): the first checkpoint of each session alone, then whole sessions of
    20 successive checkpoints, each stored as changes to the one before."""
    first_raw = first_stored = raw = stored = 0
    for seed in range(sessions):
        for step, state in enumerate(checkpoint_corpus.session(seed)):
            result = app.checkpoints.save(state, f"realistic-{seed}")
            raw += result.size_bytes
            stored += result.stored_bytes
            if step == 0:
                first_raw += result.size_bytes
                first_stored += result.stored_bytes
    plain = sum(
        len(zstandard.ZstdCompressor(level=3).compress(json.dumps(s).encode()))
        for s in (checkpoint_corpus.session(seed)[0] for seed in range(sessions))
    )
    single, whole = first_raw / first_stored, raw / stored
    print(
        f"realistic agent states ({first_raw / sessions / 1024:.0f} KB): one checkpoint "
        f"{single:.2f}x (target >= 5; plain zstd level 3 {first_raw / plain:.2f}x); a session "
        f"of {checkpoint_corpus.STEPS} checkpoints {whole:.2f}x (target >= 10)"
    )
    return {"realistic_single_ratio": single, "realistic_session_ratio": whole}


def bench_listing(app, home: Path, repeat: int) -> dict[str, float]:
    for n in range(1000):
        app.checkpoints.save(
            {"step": n, "note": "a small checkpoint"}, "listing", {"name": f"s{n}"}
        )
    conn = sqlite3.connect(home / "loci.db")
    query = (
        "SELECT id, created_at, size_bytes, stored_bytes, critical, metadata FROM checkpoints "
        "WHERE session_id = ? ORDER BY seq DESC LIMIT 1000"
    )
    page_query = query.replace("LIMIT 1000", "LIMIT 20")
    base = timed(lambda n: conn.execute(query, ("listing",)).fetchall(), repeat)

    ours = timed(lambda n: app.checkpoints.list_checkpoints("listing", limit=1000), repeat)
    page_base = timed(lambda n: conn.execute(page_query, ("listing",)).fetchall(), repeat)
    page = timed(lambda n: app.checkpoints.list_checkpoints("listing"), repeat)
    conn.close()
    ratio, page_ratio = p50(ours) / p50(base), p50(page) / p50(page_base)
    print(
        f"listing all 1000 checkpoints of a session: p50 {p50(ours):.2f} ms; bare indexed query "
        f"p50 {p50(base):.2f} ms; ratio {ratio:.2f} (target <= 2)"
    )
    print(
        f"listing the default page (20) of the same session: p50 {p50(page):.3f} ms; bare "
        f"p50 {p50(page_base):.3f} ms; ratio {page_ratio:.2f}"
    )
    return {
        "list_ms": p50(ours),
        "list_baseline_ms": p50(base),
        "list_ratio": ratio,
        "page_ms": p50(page),
        "page_ratio": page_ratio,
    }


if __name__ == "__main__":
    main()
