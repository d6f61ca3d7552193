"""Emoji shortcodes (`:smile:`) and the code GitBook stores for an emoji (its code points in hex).

The table is the `emoji` package's (GitHub-style aliases and Unicode names), imported on first use
only: most pages have no emoji and the import costs a tenth of a second.
"""

from __future__ import annotations

import functools
import re
from typing import Any

_NAME = re.compile(r"[^\s:]{1,80}")


@functools.cache
def _tables() -> tuple[dict[str, str], dict[str, list[str]]]:
    import emoji

    data: dict[str, dict[str, Any]] = emoji.EMOJI_DATA
    by_name: dict[str, str] = {}
    by_char: dict[str, list[str]] = {}
    qualified = emoji.STATUS["fully_qualified"]
    # Fully-qualified sequences first, so that a name shared with a bare variant reads as the former.
    ordered = sorted(data.items(), key=lambda item: item[1].get("status") != qualified)
    for char, info in ordered:
        names = [*info.get("alias", []), info["en"]]
        for name in names:
            key = name.strip(":")
            if _NAME.fullmatch(key):
                by_name.setdefault(key, char)
        by_char[char] = [name.strip(":") for name in names if _NAME.fullmatch(name.strip(":"))]
    return by_name, by_char


def code_for_name(name: str) -> str | None:
    char = _tables()[0].get(name)
    return None if char is None else "-".join(f"{ord(c):x}" for c in char)


def name_for_code(code: str) -> str | None:
    try:
        char = "".join(chr(int(part, 16)) for part in code.split("-"))
    except (ValueError, OverflowError):
        return None
    # Only a name that reads back to the same code keeps the emoji as it was.
    return next((name for name in _tables()[1].get(char, []) if code_for_name(name) == code), None)


def is_name(name: str) -> bool:
    return _NAME.fullmatch(name) is not None and name in _tables()[0]
