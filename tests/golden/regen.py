"""Regenerate the golden playthroughs in tests/golden/ (``*.log.jsonl``, ``*.views.jsonl``,
``*.steps.jsonl``).

    PYTHONPATH=shared-engine/src python tests/golden/regen.py

These files pin the engine's observable behaviour: every event of a bot-played match of each game,
variant and player count, every view after every event, and after every event the seat to act, its
legal moves and (when a hand ended) the hand's result. tests/engine/test_golden.py compares
the engine against them byte for byte (and test_pyodide.py does inside Pyodide).

Regenerate ONLY ON PURPOSE, when behaviour deliberately changes (a rule fixed, a view field added,
the bot changed), never to make a failing test pass after a refactoring that should change nothing:
that failure is the test doing its job. Review the diff of the files (``git diff --stat
tests/golden``) and say in the commit why behaviour changed. Files of playthroughs that no longer
exist are removed.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import playthrough  # noqa: E402


def main() -> int:
    import paiju

    texts = playthrough.all_texts()
    changed = 0
    for name, text in texts.items():
        path = HERE / name
        data = text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            changed += 1
            print(f"wrote {name} ({len(data)} bytes)")
    for stale in sorted(HERE.glob("*.jsonl")):
        if stale.name not in texts:
            stale.unlink()
            print(f"removed {stale.name}")
    total = sum(len(t.encode("utf-8")) for t in texts.values())
    print(f"{len(texts)} files, {total} bytes, {changed} changed (engine: {paiju.__file__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
