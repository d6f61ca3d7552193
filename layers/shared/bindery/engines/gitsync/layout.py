"""Where things live in a Git Sync repository: `.gitbook.yaml`, paths, slugs, and git blob ids.

Every path here is POSIX and relative to the project directory (the part of the repository a space
syncs with). `root` is a directory prefix inside it: "" (the default `./`) or "docs/".
"""

from __future__ import annotations

import mimetypes
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

import yaml
from dulwich.objects import Blob

from bindery.platform.errors import BadRequest

CONFIG_FILE = ".gitbook.yaml"
README = "README.md"
SUMMARY = "SUMMARY.md"
ASSETS = ".gitbook/assets/"
INCLUDES = ".gitbook/includes/"
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_NOT_SLUG = re.compile(r"[^\w.-]+")


class InvalidRepository(BadRequest):
    """The repository cannot be read as GitBook content; the message names the file and the problem."""


@dataclass(frozen=True)
class Config:
    """`.gitbook.yaml`, with every path made relative to the project directory."""

    root: str = ""
    readme: str = README
    summary: str = SUMMARY
    redirects: dict[str, str] = field(default_factory=dict)  # as written: source -> file (root-relative)


def normalize(path: str, *, what: str) -> str:
    """`path` without `./`, `..` or doubled slashes; an InvalidRepository if it leaves the project."""
    cleaned = posixpath.normpath(path.strip().lstrip("/")) if path.strip().strip("/.") else "."
    if cleaned == ".":
        return ""
    if cleaned == ".." or cleaned.startswith("../"):
        raise InvalidRepository(f"{what}: {path!r} points outside the project directory")
    return cleaned


def _string(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidRepository(f"{CONFIG_FILE}: {key} must be a path")
    return value


def read_config(raw: bytes | None) -> Config:
    if raw is None:
        return Config()
    try:
        data = yaml.safe_load(raw.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError) as error:
        raise InvalidRepository(f"{CONFIG_FILE}: not valid YAML ({str(error).splitlines()[0]})") from error
    structure = data.get("structure") if isinstance(data, dict) else None
    redirects = data.get("redirects") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(structure or {}, dict):
        raise InvalidRepository(f"{CONFIG_FILE}: expected a mapping with root, structure and redirects")
    if not isinstance(redirects or {}, dict):
        raise InvalidRepository(f"{CONFIG_FILE}: redirects must map old paths to files")
    root = normalize(_string(data, "root", "./"), what=f"{CONFIG_FILE}: root")
    root = f"{root}/" if root else ""
    structure = structure or {}
    readme = normalize(_string(structure, "readme", README), what=f"{CONFIG_FILE}: structure.readme")
    summary = normalize(_string(structure, "summary", SUMMARY), what=f"{CONFIG_FILE}: structure.summary")
    return Config(
        root=root,
        readme=readme or README,
        summary=summary or SUMMARY,
        redirects={str(source).strip("/"): str(target) for source, target in (redirects or {}).items()},
    )


def render_config(root: str, readme: str | None, summary: str, redirects: Mapping[str, str]) -> bytes:
    data: dict[str, Any] = {"root": f"./{root}"}
    data["structure"] = {"readme": readme or README, "summary": summary}
    if redirects:
        data["redirects"] = dict(redirects)
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=2**31 - 1)
    return text.encode()


# --- paths ----------------------------------------------------------------------------------------------
def directory(path: str) -> str:
    """The directory holding `path`, with its trailing slash ("" at the top)."""
    parent = posixpath.dirname(path)
    return f"{parent}/" if parent else ""


def child_directory(path: str) -> str:
    """Where a page's children go: a README's own folder, else a folder named after the file."""
    if posixpath.basename(path) == README:
        return directory(path)
    return path[: -len(".md")] + "/" if path.endswith(".md") else path + "/"


def join(base_directory: str, relative: str) -> str | None:
    """`relative` (decoded) resolved from `base_directory`; None when it leaves the project."""
    joined = posixpath.normpath(posixpath.join(base_directory, relative)) if relative else base_directory
    if joined in (".", ""):
        return ""
    if joined == ".." or joined.startswith("../"):
        return None
    return joined


def relative_url(from_directory: str, target: str) -> str:
    """The percent-encoded relative URL of `target` from a page in `from_directory`."""
    start = from_directory.rstrip("/") or "."
    return quote(posixpath.relpath(target, start), safe="/")


def is_external(url: str) -> bool:
    return bool(_SCHEME.match(url)) or url.startswith("//")


def split_url(url: str) -> tuple[str, str | None]:
    """A relative URL's decoded path and its anchor (None without `#`)."""
    path, hashed, anchor = url.partition("#")
    return unquote(path.split("?", 1)[0]), anchor if hashed else None


# --- names ----------------------------------------------------------------------------------------------
def slugify(text: str) -> str:
    return _NOT_SLUG.sub("-", text.strip().lower()).strip("-.") or "page"


def slug_of(path: str) -> str:
    """A page's slug from its file: `a/install.md` -> install, `a/README.md` -> a."""
    name = posixpath.basename(path)
    if name == README and directory(path):
        name = posixpath.basename(directory(path).rstrip("/"))
    stem = name[: -len(".md")] if name.endswith(".md") else name
    slug = _NOT_SLUG.sub("-", stem.strip().lower())  # not stripped: `a-.md` is the slug `a-`
    return slug if slug.strip("-.") else "page"


def content_type(name: str) -> str:
    guessed, _ = mimetypes.guess_type(name, strict=False)
    return guessed or "application/octet-stream"


def git_blob(path: str, data: bytes) -> dict[str, str]:
    """The spec's `GitSyncBlob` for a file: its git blob id (sha1 of the object) and path."""
    return {"oid": Blob.from_string(data).id.decode(), "path": path}
