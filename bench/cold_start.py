"""Cold-start imports: the CPU time each Lambda handler module takes to import in a fresh interpreter, as
a ratio against importing boto3 alone (which every function needs) measured in the same run.

    python -m bench.cold_start [--repeat 7] [--only ContentFunction ...] [--no-top]

Each measurement is a new interpreter, loading compiled bytecode (written by an untimed first round), that
reads `time.process_time()` around `import <handler module>`:
CPU time, not wall time, because the machine is shared and a busy neighbour stretches wall time far more
than the CPU an import needs. The figure is the best of `--repeat` rounds, each round measuring every
row once, so that load drifting during the run touches every row alike. Above the functions, the floors:
boto3, then what an API function imports before any code of its own (Powertools' event handler, which
brings Powertools' Logger, Metrics and Tracer with the package, and pydantic), then Bindery's own floor
(`bindery.api.http`: the resolver, the observability wrapper and the settings model). The five costliest
direct imports of each handler (one `python -X importtime` run, wall time) are listed so that a new heavy
dependency shows up by name. Every row has the environment the template gives every deployed function
(its literal Globals variables: `PYDANTIC_DISABLE_PLUGINS` spares pydantic's scan for plugins).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/cold_start.py` as well as `python -m bench.cold_start`
    sys.path.insert(0, str(ROOT))

from local import template  # noqa: E402

BASELINE = "boto3"
# What every API function imports before its own code, cumulatively (each row includes the ones above).
FLOORS = (
    ("floor: boto3", "boto3"),
    # `pydantic.main`, not `pydantic`: the package imports its machinery lazily, on the first BaseModel.
    ("floor: + Powertools, pydantic", "boto3, aws_lambda_powertools.event_handler, pydantic.main"),
    ("floor: + bindery.api.http",
     "boto3, aws_lambda_powertools.event_handler, pydantic.main, bindery.api.http"),
)


@dataclass(frozen=True)
class Target:
    """One row: what to import, and from where."""

    name: str
    modules: str
    code_dir: Path | None = None


def handlers() -> list[Target]:
    """Every function of template.yaml with its handler module and code directory."""
    return [Target(function.name, function.handler.rsplit(".", 1)[0], function.code_uri)
            for function in template.load().functions.values()]


class ImportFailed(Exception):
    pass


def deployed_variables() -> dict[str, str]:
    """The environment every deployed function has that the template writes out (Globals.Function's
    variables with a literal value): some change what an import does (`PYDANTIC_DISABLE_PLUGINS`)."""
    raw = template.load().raw
    variables = ((raw.get("Globals") or {}).get("Function") or {}).get("Environment", {}).get("Variables", {})
    return {name: value for name, value in variables.items() if isinstance(value, str)}


def _env(code_dir: Path | None) -> dict[str, str]:
    paths = [str(ROOT / "layers" / "shared"), *([str(code_dir)] if code_dir else [])]
    env = {**os.environ, **deployed_variables(), "PYTHONPATH": os.pathsep.join(paths),
           "AWS_DEFAULT_REGION": "us-east-1"}
    # Every row loads compiled bytecode (written by the first, untimed round): a module compiled from
    # source costs several times its import, and whether its .pyc happened to exist would decide a row.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_micros(target: Target) -> int:
    """CPU time (user + system) of importing `target.modules` in a new interpreter, in µs."""
    script = (f"import time; started = time.process_time(); import {target.modules}; "
              "print(round((time.process_time() - started) * 1e6))")
    done = subprocess.run([sys.executable, "-c", script], env=_env(target.code_dir),
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise ImportFailed(done.stderr.strip().splitlines()[-1])
    return int(done.stdout.strip().splitlines()[-1])


def heaviest_imports(target: Target) -> list[tuple[int, str]]:
    """The five direct imports of the module with the largest cumulative import time (µs, wall)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {target.modules}"],
                          env=_env(target.code_dir), capture_output=True, text=True, check=False)
    children: list[tuple[int, str]] = []
    # `-X importtime` prints a module after its imports, indented two spaces per level below the first
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _own, cumulative, name = line.split(":", 1)[1].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2
        if depth == 0 and name.strip() == target.modules:
            return sorted(children, reverse=True)[:5]
        if depth == 0:
            children = []
        elif depth == 1:
            children.append((int(cumulative.strip()), name.strip()))
    return []


def best_of(targets: list[Target], repeat: int) -> dict[str, int | ImportFailed]:
    """Each target's least CPU time over `repeat` rounds (a target that fails once is dropped)."""
    best: dict[str, int | ImportFailed] = {}
    for target in targets:  # untimed: writes the bytecode every timed round then reads
        try:
            cpu_micros(target)
        except ImportFailed as error:
            best[target.name] = error
    for _ in range(repeat):
        for target in targets:
            if isinstance(best.get(target.name), ImportFailed):
                continue
            try:
                micros = cpu_micros(target)
            except ImportFailed as error:
                best[target.name] = error
                continue
            previous = best.get(target.name)
            best[target.name] = micros if not isinstance(previous, int) else min(previous, micros)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cold_start", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=[], help="function names (default: all)")
    parser.add_argument("--no-top", action="store_true", help="skip the importtime run per function")
    args = parser.parse_args(argv)
    floors = [Target(name, modules) for name, modules in FLOORS]
    functions = [target for target in handlers() if not args.only or target.name in args.only]
    best = best_of(floors + functions, args.repeat)
    baseline = best[floors[0].name]
    if isinstance(baseline, ImportFailed):
        raise SystemExit(f"{BASELINE} fails to import: {baseline}")
    print(f"best CPU time of {args.repeat} rounds; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{'row':<32}{'imports':<34}{'CPU ms':>8}{'ratio':>7}  heaviest imports (wall ms)")
    failed = 0
    for target in floors + functions:
        result = best[target.name]
        if isinstance(result, ImportFailed):
            failed += 1
            print(f"{target.name:<32}{target.modules:<34}  fails to import: {result}")
            continue
        top = "" if args.no_top or target.code_dir is None else ", ".join(
            f"{name} {micros / 1000:.0f}" for micros, name in heaviest_imports(target))
        shown = target.modules if len(target.modules) <= 33 else "…" + target.modules[-32:]
        print(f"{target.name:<32}{shown:<34}{result / 1000:>8.1f}{result / baseline:>7.2f}  {top}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
