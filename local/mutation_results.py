"""The kill-rate table of docs/testing.md ("Mutation testing", "Results"), which `make mutation` keeps:
one row per module, written after each passing run of it, ending with the module's fingerprint.

The fingerprint (12 hex digits of a SHA-256) covers what a module's entry names: the source files that
are mutated and the test files run against them. `python -m local.mutation --changed` (what CI runs)
runs the modules whose fingerprint is not the one recorded: a module whose code or tests changed since
its last passing run, or a module just added. A module that nobody changed is not run again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_HEADER = "| module | mutants | killed | equivalent | alive | killed of the non-equivalent | fingerprint |"
_NAME = re.compile(r"`(?P<name>[\w-]+)`")


def fingerprint(root: Path, paths: Iterable[str]) -> str:
    """The files' paths and bytes, hashed in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.encode() + b"\0" + (root / path).read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Result:
    name: str
    mutants: int
    killed: int
    equivalent: int
    alive: int
    rate: float
    fingerprint: str

    def row(self) -> str:
        return (f"| `{self.name}` | {self.mutants} | {self.killed} | {self.equivalent} | {self.alive} | "
                f"{self.rate:.1%} | {self.fingerprint} |")


def _parsed(line: str) -> tuple[str, str] | None:
    """A results row's module name and fingerprint ("" when it has none); None for any other line."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if not line.startswith("|") or len(cells) < 6 or not cells[1].isdigit():
        return None
    found = _NAME.fullmatch(cells[0])
    return (found["name"], cells[6] if len(cells) > 6 else "") if found else None


def recorded(doc: Path) -> dict[str, str]:
    """The fingerprint each module's row records (empty for a row without one)."""
    rows = (_parsed(line) for line in doc.read_text().splitlines())
    return dict(row for row in rows if row)


def record(doc: Path, result: Result) -> None:
    """The module's row replaced, or added at the end of the table."""
    lines = doc.read_text().splitlines()
    start = lines.index(_HEADER) + 2  # past the header and its |---| line
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    names = [(parsed or ("", ""))[0] for parsed in map(_parsed, lines[start:end])]
    rows = [line for line, name in zip(lines[start:end], names, strict=True) if name != result.name]
    rows.insert(names.index(result.name) if result.name in names else len(rows), result.row())
    doc.write_text("\n".join([*lines[:start], *rows, *lines[end:]]) + "\n")
