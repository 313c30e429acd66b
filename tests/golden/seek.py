"""Find a seed for a decision playthrough (``playthrough.DECISIONS``): the first of
``decisions-0``, ``decisions-1``, … whose match has every decision the case pins and scores it
(``playthrough.missed`` is empty). The seed found goes into the case by hand.

    PYTHONPATH=shared-engine/src python tests/golden/seek.py [NAME ...] [--tries N]

Needed when a change of the rules or of the bot makes a case's seed miss a decision (the test of
the pins in tests/engine/test_golden.py says which): seek a seed, put it in the case, regenerate.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import playthrough  # noqa: E402


def seek(case: playthrough.Decisions, tries: int) -> str | None:
    """The first seed of ``tries`` whose playthrough of ``case`` misses nothing, or None."""
    for k in range(tries):
        tried = dataclasses.replace(case, seed=f"decisions-{k}")
        texts = playthrough.decision_texts(tried)
        log, steps = (texts[f"{case.name}.{kind}.jsonl"] for kind in ("log", "steps"))
        if not playthrough.missed(tried, log, steps):
            return tried.seed
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="the cases (default: every one)")
    parser.add_argument("--tries", type=int, default=200)
    args = parser.parse_args()
    cases = [c for c in playthrough.DECISIONS if not args.names or c.name in args.names]
    for case in cases:
        found = seek(case, args.tries)
        print(f"{case.name}: {found or f'no seed in {args.tries} tries'} (now {case.seed})")
    return 0 if cases else 1


if __name__ == "__main__":
    sys.exit(main())
