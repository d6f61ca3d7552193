"""OpenAPI processing of a large real specification: seconds and peak memory, in process, as a ratio to
plain openapi-spec-validator on the same file in the same run.

    python -m bench.openapi_bench [--spec PATH] [--rounds 3]

The spec is the official @gitbook/api 0.146.0 document (1.2 MB of JSON) when the conformance suite's
node_modules has it, else the pruned copy the tests read (tests/reference, 0.7 MB). Measured:
- baseline: `openapi_spec_validator.validate` on the parsed document (what any validation costs);
- Bindery: `bindery.engines.openapi.filesystem.from_text` + `bindery.engines.openapi.validation.validate` +
the digest,
  i.e. the worker's processing of a text source without the storage requests (parsing, the `$ref` walk,
  validation with in-memory resolution, canonical JSON).
Each is run `--rounds` times; the best time counts, and the peak of tracemalloc over one round.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

FULL_SPEC = ROOT / "conformance" / "node_modules" / "@gitbook" / "api" / "spec" / "openapi.json"
PRUNED_SPEC = ROOT / "tests" / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"


def _measure(work: Callable[[], object], rounds: int) -> tuple[float, float]:
    """(best seconds, peak MB of one round)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak / (1024 * 1024)


def run(spec_path: Path, rounds: int) -> dict[str, float]:
    from openapi_spec_validator import validate as plain_validate

    from bindery.engines.openapi import filesystem, validation

    data = spec_path.read_bytes()

    def baseline() -> None:
        plain_validate(json.loads(data))

    def bindery() -> None:
        files = filesystem.from_text(data)
        validation.validate(files)
        files.digest()

    base_s, base_mb = _measure(baseline, rounds)
    ours_s, ours_mb = _measure(bindery, rounds)
    return {"bytes": len(data), "baseline_s": base_s, "baseline_mb": base_mb, "bindery_s": ours_s,
            "bindery_mb": ours_mb, "time_ratio": ours_s / base_s, "memory_ratio": ours_mb / base_mb}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", type=Path, default=FULL_SPEC if FULL_SPEC.exists() else PRUNED_SPEC)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    result = run(args.spec, args.rounds)
    print(f"{args.spec.name}: {result['bytes'] / 1e6:.2f} MB")
    print(f"  openapi-spec-validator: {result['baseline_s']:.2f} s, peak {result['baseline_mb']:.0f} MB")
    print(f"  Bindery processing:     {result['bindery_s']:.2f} s, peak {result['bindery_mb']:.0f} MB"
          f"  (x{result['time_ratio']:.2f} time, x{result['memory_ratio']:.2f} memory)")


if __name__ == "__main__":
    main()
