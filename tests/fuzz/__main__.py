"""`python -m tests.fuzz` (`make fuzz`): schemathesis against the API `make run` serves.

For each of two schemas — the official spec restricted to the operations Bindery serves, and Bindery's own
docs/openapi.json — starts `python -m local.server` in a throwaway data directory, seeds one
organization's world through the API (tests/fuzz/world.py) and runs schemathesis with a fixed seed and
the examples, coverage and fuzzing phases. The two runs go in parallel, each against its own server.
Exit status 0 only when both runs have no failure. docs/testing.md says what is covered and why the
bounds are what they are.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "layers" / "shared"))

from tests.fuzz import schemas  # noqa: E402 - the layer must be importable first
from tests.fuzz.world import seed  # noqa: E402
from tests.local.runner_process import STORAGE, Runner  # noqa: E402

PHASES = "examples,coverage,fuzzing"


def fuzz(name: str, schema: dict[str, Any], args: argparse.Namespace, workdir: Path) -> tuple[int, str]:
    """One schema's run against a server of its own (so the two runs, in parallel, cannot disturb each
    other's world and each stays deterministic): its exit status and its output."""
    workdir.mkdir()
    engine = os.environ.get("BINDERY_FUZZ_ENGINE", "moto")
    runner = Runner(workdir, {"BINDERY_ENGINE": engine, "BINDERY_QUIET": "1"})
    output = workdir / "schemathesis.txt"
    try:
        started = time.monotonic()
        banner = runner.banner()
        storage = STORAGE.search(runner.text())
        if storage is None:
            raise RuntimeError(f"no Storage line in the runner's output:\n{runner.text()}")
        world = seed(runner.port, banner["API token"], banner["User id"], storage.group(1), workdir)
        seeded = time.monotonic() - started
        (workdir / f"{name}.json").write_text(json.dumps(schema))
        config = schemas.config(name, schema, world, seed=args.seed, max_examples=args.max_examples)
        (workdir / f"{name}.toml").write_text(config)
        command = [sys.executable, "-m", "schemathesis.cli", "--no-color", "--config-file", f"{name}.toml",
                   "run", f"{name}.json", "--url", f"http://127.0.0.1:{runner.port}/v1",
                   "--phases", args.phases,
                   "--checks", ",".join(schemas.CHECKS), "--workers", "1",
                   "--report", "junit", "--report-dir", "report"]
        with output.open("w") as out:
            code = subprocess.run(command, cwd=workdir, stdout=out, stderr=subprocess.STDOUT,
                                  check=False).returncode
    finally:
        runner.stop()
        # The server's output (tracebacks of any 5xx) for whoever reads a failure.
        log = runner.output + list(iter(runner.lines.get, None))
        (workdir / "runner.log").write_text("\n".join(log) + "\n")
    took = time.monotonic() - started
    header = (f"== schemathesis: {name} ({schemas.operation_count(schema)} operations; world seeded in "
              f"{seeded:.0f} s) ==")
    return code, f"{header}\n{output.read_text()}== {name}: exit {code} in {took:.0f} s ==\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--schema", choices=("official", "ours", "both"), default="both")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--max-examples", type=int, default=5,
                        help="test cases per operation in the fuzzing phase (default: 5)")
    parser.add_argument("--phases", default=PHASES)
    parser.add_argument("--keep", action="store_true",
                        help="keep the work directory (configs, reports, the servers' logs)")
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="bindery-fuzz-"))
    runs = {"official": schemas.official_restricted, "ours": lambda: json.loads(schemas.OURS.read_text())}
    chosen = {name: load() for name, load in runs.items() if args.schema in (name, "both")}
    try:
        with ThreadPoolExecutor(max_workers=len(chosen)) as pool:
            futures = {name: pool.submit(fuzz, name, schema, args, workdir / name)
                       for name, schema in chosen.items()}
            results = {name: future.result() for name, future in futures.items()}
    finally:
        if args.keep:
            print(f"work directory kept: {workdir}")
        else:
            subprocess.run(["rm", "-rf", str(workdir)], check=False)
    for _, text in results.values():
        print(text, flush=True)
    failed = [name for name, (code, _) in results.items() if code]
    if failed:
        print(f"fuzz: failures against {', '.join(failed)} (rerun with --keep for the servers' logs)")
        return 1
    print("fuzz: 0 failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
