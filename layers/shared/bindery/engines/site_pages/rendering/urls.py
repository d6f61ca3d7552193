"""Which URLs a page may carry in `href`/`src`: only http(s), mailto, relative ones and `#` anchors.

A document stores URLs as their authors wrote them (docs/markdown.md keeps `javascript:` as written), so
every URL is checked here before it reaches an attribute, whether it came from the document or from the
link resolver. Browsers drop tabs and newlines anywhere in a URL and leading control characters and
spaces, so `java\tscript:` and ` javascript:` are read as the scheme they spell once those are removed.
"""

from __future__ import annotations

import re

_IGNORED_BY_BROWSERS = re.compile(r"[\t\n\r]")
_LEADING = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def safe_url(url: object) -> str | None:
    """The URL to write, or None when it may not reach a page (another scheme, not a string)."""
    if not isinstance(url, str):
        return None
    cleaned = _LEADING.sub("", _IGNORED_BY_BROWSERS.sub("", url))
    if not cleaned or _CONTROL.search(cleaned):
        return None
    scheme = _SCHEME.match(cleaned)
    if scheme is not None and scheme.group(1).lower() not in _ALLOWED_SCHEMES:
        return None
    return cleaned


def is_external(url: str) -> bool:
    """Whether the URL leaves the site (it then gets `rel="noopener noreferrer"`)."""
    scheme = _SCHEME.match(url)
    return url.startswith(("//", "\\\\", "/\\")) or (
        scheme is not None and scheme.group(1).lower() in ("http", "https"))


def https_url(url: object) -> str | None:
    """The URL when it is https (what an allowed embed may frame), else None."""
    cleaned = safe_url(url)
    if cleaned is None:
        return None
    scheme = _SCHEME.match(cleaned)
    return cleaned if scheme is not None and scheme.group(1).lower() == "https" else None
