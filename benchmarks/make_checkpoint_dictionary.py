"""Train the zstd dictionary loci ships for checkpoint blobs (`loci/toolsets/checkpoints/data/`).

    python benchmarks/make_checkpoint_dictionary.py

It learns from agent states of the `train` half of `checkpoint_corpus.py` (public text: the
Python standard library's modules, test names and docstrings), never from the `eval` half that
`bench_checkpoints.py` measures. Training is deterministic for a given corpus and zstandard.
"""

from __future__ import annotations

import json
from pathlib import Path

import zstandard

from checkpoint_corpus import session

TARGET = Path(__file__).resolve().parents[1] / "src" / "loci" / "checkpoints" / "data"
SIZE = 256 * 1024


def main() -> None:
    samples = [
        json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        for seed in range(100, 220)
        for state in session(seed, "train")[::2]
    ]
    dictionary = zstandard.train_dictionary(SIZE, samples, level=19)
    path = TARGET / "agent-states.zdict"
    path.write_bytes(dictionary.as_bytes())
    print(f"wrote {path}: {len(dictionary.as_bytes())} bytes, id {dictionary.dict_id()}, "
          f"from {len(samples)} states")  # fmt: skip


if __name__ == "__main__":
    main()
