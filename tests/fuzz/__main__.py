"""`python -m tests.fuzz` (`make fuzz`): schemathesis against the API `make run` serves.

Starts `python -m local.server` in a throwaway data directory, seeds one organization's world through the
API (tests/fuzz/world.py), then runs schemathesis twice, with a fixed seed and the examples, coverage and
fuzzing phases: against the official spec restricted to the operations Bindery serves, and against
Bindery's own docs/openapi.json. Exit status 0 only when both runs have no failure. docs/testing.md says
what is covered and why the bounds are what they are.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "layers" / "shared"))

from tests.fuzz import schemas  # noqa: E402 - the layer must be importable first
from tests.fuzz.world import seed  # noqa: E402
from tests.local.runner_process import STORAGE, Runner  # noqa: E402

PHASES = "examples,coverage,fuzzing"


def run_schemathesis(name: str, schema: dict[str, object], config: str, *, url: str, workdir: Path,
                     phases: str) -> int:
    schema_path = workdir / f"{name}.json"
    schema_path.write_text(json.dumps(schema))
    config_path = workdir / f"{name}.toml"
    config_path.write_text(config)
    command = [sys.executable, "-m", "schemathesis.cli", "--no-color", "--config-file", str(config_path),
               "run", str(schema_path), "--url", url, "--phases", phases,
               "--checks", ",".join(schemas.CHECKS), "--workers", "1",
               "--report", "junit", "--report-dir", str(workdir / f"{name}-report")]
    print(f"\n== schemathesis: {name} ({schemas.operation_count(schema)} operations) ==", flush=True)
    started = time.monotonic()
    code = subprocess.run(command, cwd=workdir, check=False).returncode
    print(f"== {name}: exit {code} in {time.monotonic() - started:.0f} s ==", flush=True)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--schema", choices=("official", "ours", "both"), default="both")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--max-examples", type=int, default=5,
                        help="test cases per operation in the fuzzing phase (default: 5)")
    parser.add_argument("--phases", default=PHASES)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (reports, configs)")
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="bindery-fuzz-"))
    engine = os.environ.get("BINDERY_FUZZ_ENGINE", "moto")
    runner = Runner(workdir, {"BINDERY_ENGINE": engine, "BINDERY_QUIET": "1"})
    try:
        started = time.monotonic()
        banner = runner.banner()
        storage = STORAGE.search(runner.text())
        if storage is None:
            raise SystemExit(f"no Storage line in the runner's output:\n{runner.text()}")
        world = seed(runner.port, banner["API token"], banner["User id"], storage.group(1), workdir)
        print(f"seeded organization {world.params['organizationId']} in {time.monotonic() - started:.0f} s")
        url = f"http://127.0.0.1:{runner.port}/v1"
        runs = {"official": schemas.official_restricted(), "ours": json.loads(schemas.OURS.read_text())}
        failed = []
        for name, schema in runs.items():
            if args.schema not in (name, "both"):
                continue
            config = schemas.config(name, schema, world, seed=args.seed, max_examples=args.max_examples)
            if run_schemathesis(name, schema, config, url=url, workdir=workdir, phases=args.phases):
                failed.append(name)
    finally:
        runner.stop()
        # The server's output (tracebacks of any 5xx) for whoever reads a failure: after the run's own.
        log = runner.output + list(iter(runner.lines.get, None))
        (workdir / "runner.log").write_text("\n".join(log) + "\n")
        if args.keep:
            print(f"work directory kept: {workdir}")
        else:
            subprocess.run(["rm", "-rf", str(workdir)], check=False)
    if failed:
        print(f"fuzz: failures against {', '.join(failed)} (rerun with --keep for the runner's log)")
        return 1
    print("fuzz: 0 failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
