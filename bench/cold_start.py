"""Cold-start imports: how long each Lambda handler module takes to import in a fresh interpreter, as
a ratio against importing boto3 alone (which every function needs) measured in the same run.

    python -m bench.cold_start [--repeat 5]

Each measurement is a new `python -X importtime` process; the figure is the median over `--repeat`
processes of the cumulative import time of the handler module (what Lambda's init phase pays before the
first request, apart from the runtime itself). The top imports of each handler are listed so that a new
heavy dependency shows up by name.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/cold_start.py` as well as `python -m bench.cold_start`
    sys.path.insert(0, str(ROOT))

from local import template  # noqa: E402

BASELINE = "boto3"


@dataclass(frozen=True)
class Handler:
    function: str
    code_dir: Path
    module: str


def handlers() -> list[Handler]:
    """Every function of template.yaml with its code directory and handler module."""
    return [Handler(function.name, function.code_uri, function.handler.rsplit(".", 1)[0])
            for function in template.load().functions.values()]


class ImportFailed(Exception):
    pass


def import_times(module: str, code_dir: Path | None) -> tuple[int, list[tuple[int, str]]]:
    """Cumulative import time of `module` in µs, and its five most expensive direct imports."""
    paths = [str(ROOT / "layers" / "shared"), *([str(code_dir)] if code_dir else [])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "AWS_DEFAULT_REGION": "us-east-1"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise ImportFailed(done.stderr.strip().splitlines()[-1])
    children: list[tuple[int, str]] = []
    # `-X importtime` prints a module after its imports, indented two spaces per level below the first
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _own, cumulative, name = line.split(":", 1)[1].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2
        if depth == 0 and name.strip() == module:
            return int(cumulative.strip()), sorted(children, reverse=True)[:5]
        if depth == 0:
            children = []
        elif depth == 1:
            children.append((int(cumulative.strip()), name.strip()))
    raise ImportFailed(f"{module} is not in the import log")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cold_start", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    baseline = statistics.median(import_times(BASELINE, None)[0] for _ in range(args.repeat))
    print(f"{'function':<26}{'handler':<34}{'median ms':>10}{'ratio':>8}  heaviest imports")
    print(f"{'baseline':<26}{BASELINE:<34}{baseline / 1000:>10.1f}{1:>8.2f}")
    failed = 0
    for handler in handlers():
        try:
            runs = [import_times(handler.module, handler.code_dir) for _ in range(args.repeat)]
        except ImportFailed as error:
            failed += 1
            print(f"{handler.function:<26}{handler.module:<34}  fails to import: {error}")
            continue
        median = statistics.median(total for total, _ in runs)
        top = ", ".join(f"{name} {micros / 1000:.0f}" for micros, name in runs[-1][1])
        print(f"{handler.function:<26}{handler.module:<34}{median / 1000:>10.1f}"
              f"{median / baseline:>8.2f}  {top}")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
