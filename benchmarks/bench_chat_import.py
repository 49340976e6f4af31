"""Importing a ChatGPT export: reading it streamed (peak memory), and its throughput against
`import_memories` of the same texts.

    python benchmarks/bench_chat_import.py [--megabytes 100] [--timed-megabytes 100]

Zips as ChatGPT gives them are made by `chat_exports.py` (split `conversations-NNN.json`,
branches, hidden nodes, thoughts, images, code runs). Each command runs in a process of its
own, whose peak resident memory (model included) is read from its rusage:

- `loci import-chats --dry-run` of the `--megabytes` export: every conversation read and
  checked against the store, nothing embedded (the reading and its memory);
- `loci import-chats` of the `--timed-megabytes` export, then `loci export` of what it stored
  and `loci import --keep-duplicates` of that file into a new data folder (the
  `import_memories` path, the same texts embedded again). Throughputs are messages per second
  of the whole command.

Targets: a throughput ratio of at least 0.85, a peak of at most 600 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chat_exports import write_export

TARGET_RATIO = 0.85
TARGET_MB = 600


def loci(home: Path, *args: str) -> tuple[float, float, str]:
    """(seconds, peak resident MB, standard output) of `loci ARGS` in a new process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "loci", "--home", str(home), *args],
            stdout=out,
            stderr=err,
            env={**os.environ, "LOCI_HOME": str(home)},
        )
        _, status, usage = os.wait4(process.pid, 0)  # the child's own rusage
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"loci {' '.join(args)} failed: {err.read().decode()}")
        return seconds, usage.ru_maxrss / 1024, out.read().decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--timed-megabytes", type=float, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        big = work / "big.zip"
        size = write_export(big, args.megabytes)
        seconds, peak, out = loci(work / "dry", "import-chats", str(big), "--dry-run", "--json")
        report = json.loads(out)
        print(
            f"read {size / 1e6:.0f} MB (zip {big.stat().st_size / 1e6:.0f} MB): "
            f"{report['conversations']} conversations, {report['messages']} messages in "
            f"{seconds:.1f} s ({size / 1e6 / seconds:.1f} MB/s), peak RSS {peak:.0f} MB"
        )
        timed = work / "timed.zip"
        size = write_export(timed, args.timed_megabytes)
        chat_seconds, chat_peak, out = loci(work / "chats", "import-chats", str(timed), "--json")
        messages = int(json.loads(out)["stored"])
        print(
            f"import-chats of {size / 1e6:.0f} MB: {messages} messages in {chat_seconds:.1f} s "
            f"({messages / chat_seconds:.1f}/s), peak RSS {chat_peak:.0f} MB"
        )
        loci(work / "chats", "export", str(work / "same.json"))
        plain_seconds, plain_peak, out = loci(
            work / "plain", "import", str(work / "same.json"), "--keep-duplicates", "--json"
        )
        imported = int(json.loads(out)["imported"])
        print(
            f"import_memories of the same texts: {imported} in {plain_seconds:.1f} s "
            f"({imported / plain_seconds:.1f}/s), peak RSS {plain_peak:.0f} MB"
        )
        ratio = (messages / chat_seconds) / (imported / plain_seconds)
        print(
            f"throughput ratio {ratio:.2f} (target >= {TARGET_RATIO}); peak RSS "
            f"{max(peak, chat_peak):.0f} MB (target <= {TARGET_MB})"
        )


if __name__ == "__main__":
    main()
