"""Does any tracked file refer to a path outside the repository?

A clone alone must build, run and test: nothing beside it exists for the people who clone it. This check
(part of `make lint`) reads every file git tracks and fails on a reference to a sibling directory of the
checkout or to this workplace's absolute paths, and on a Markdown link that climbs out of the repository.

    python -m local.self_contained     # exit 1 and one line per reference found
"""

from __future__ import annotations

import posixpath
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from local.template import ROOT

# Built from parts so that this file does not report itself.
_SIBLING = "shared"
_PATTERNS = [
    re.compile(r"\.\./" + _SIBLING + r"\b"),
    re.compile(r"/work/(?:" + _SIBLING + r"|main)\b"),
    re.compile(r"\.parent\s*/\s*[\"']" + _SIBLING + r"[\"']"),
]
_MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
# Upstream documentation kept as test data: its links are the upstream authors', inside the corpus.
_UPSTREAM = ("tests/corpus/",)


@dataclass(frozen=True)
class Reference:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: refers outside the repository: {self.text}"


def tracked_files(root: Path = ROOT) -> list[str]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout
    return [name for name in listing.decode().split("\0") if name]


def _climbs_out(path: str, target: str) -> bool:
    """A relative Markdown link whose target resolves above the repository root."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^[#/]", target, re.IGNORECASE):
        return False
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target.partition("#")[0]))
    return joined == ".." or joined.startswith("../")


def references(path: str, text: str) -> list[Reference]:
    found: list[Reference] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern in _PATTERNS:
            found.extend(Reference(path, number, m.group(0)) for m in pattern.finditer(line))
        if path.endswith(".md"):
            found.extend(Reference(path, number, m.group(1)) for m in _MARKDOWN_LINK.finditer(line)
                         if _climbs_out(path, m.group(1)))
    return found


def scan(root: Path = ROOT) -> list[Reference]:
    found: list[Reference] = []
    for path in tracked_files(root):
        if path.startswith(_UPSTREAM):
            continue
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary data, or a file deleted in the work tree but not yet in the index
        found.extend(references(path, text))
    return found


def main() -> int:
    found = scan()
    for reference in found:
        print(reference)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
