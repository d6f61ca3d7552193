"""Cold-start imports counted in instructions (valgrind's callgrind), the measure that a loaded machine
does not move: CPU time under a neighbour's load varies by ±10% between runs, an instruction count by
well under 1%.

    python -m bench.cold_start_instructions [--only ContentFunction ...] [--floors-only | --no-floors]

Each row is one new interpreter under `valgrind --tool=callgrind` that imports the handler module (or a
floor's modules) from compiled bytecode, with a fixed `PYTHONHASHSEED` (set iteration order, and so the
work of building some tables, follows the hash seed). The interpreter's own start (`python -c pass`) is
subtracted from every row, and each row is printed as a ratio against the boto3 row of the same run.
Callgrind runs a program some 50 times slower: one row takes a minute or two, a full run half an hour.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/cold_start_instructions.py` as well
    sys.path.insert(0, str(ROOT))

from bench.cold_start import FLOORS, ImportFailed, Target, _env, handlers  # noqa: E402

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
START = Target("interpreter start", "")


def instructions(target: Target) -> int:
    """Instructions executed by a new interpreter that imports `target.modules` (none: `pass`)."""
    script = f"import {target.modules}" if target.modules else "pass"
    env = {**_env(target.code_dir), "PYTHONHASHSEED": "0"}
    subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, check=False)  # .pyc
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out", sys.executable,
             "-c", script], env=env, capture_output=True, text=True, check=False)
    collected = _COLLECTED.search(done.stderr)
    if done.returncode or collected is None:
        raise ImportFailed((done.stderr.strip().splitlines() or ["no output"])[-1])
    return int(collected.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cold_start_instructions",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="function names (default: all)")
    parser.add_argument("--floors-only", action="store_true", help="only boto3 and the floors")
    parser.add_argument("--no-floors", action="store_true", help="only boto3 and the functions")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind); "
                         "python -m bench.cold_start measures CPU time instead")
    floors = [Target(name, modules) for name, modules in FLOORS[:1 if args.no_floors else None]]
    functions = [] if args.floors_only else [
        target for target in handlers() if not args.only or target.name in args.only]
    start = instructions(START)
    baseline = instructions(floors[0]) - start
    print(f"instructions (callgrind), net of the interpreter's start ({start / 1e9:.3f} G)")
    print(f"{'row':<32}{'imports':<34}{'G instr':>8}{'ratio':>7}")
    failed = 0
    for target in floors + functions:
        try:
            count = baseline if target is floors[0] else instructions(target) - start
        except ImportFailed as error:
            failed += 1
            print(f"{target.name:<32}{target.modules:<34}  fails to import: {error}", flush=True)
            continue
        shown = target.modules if len(target.modules) <= 33 else "…" + target.modules[-32:]
        print(f"{target.name:<32}{shown:<34}{count / 1e9:>8.3f}{count / baseline:>7.2f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
