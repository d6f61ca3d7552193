"""Request bodies of Git Sync (ImportGitRepository and ExportToGitRepository of the reference spec).

Whether a URL may be used (scheme, host) is decided by bindery.platform.url_policy, not here: it depends
on the deployment's settings. `repoCacheID`, `repoTreeURL`, `repoCommitURL`, `timestamp` and `force` are
accepted as the spec has them; Bindery keeps no repository cache, so `repoCacheID` changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bindery.requests.common import Body


def _ref(value: str) -> str:
    if ".." in value or value.startswith("/") or value.endswith(("/", ".lock")) or "//" in value:
        raise ValueError("not a valid Git ref name")
    return value


def _directory(value: str) -> str:
    """A path inside the repository: "/"-separated, without "." or ".." segments; stored without the
    surrounding slashes ("" is the repository's root)."""
    parts = value.strip("/").split("/")
    if value.strip("/") and any(part in ("", ".", "..") for part in parts):
        raise ValueError("must be a path inside the repository, without '.' or '..' segments")
    return value.strip("/")


RepositoryUrl = Annotated[str, Field(min_length=1, max_length=2048)]
# A ref such as "refs/heads/main" (a short branch name is accepted too), as `git check-ref-format` allows.
GitRef = Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[^\s~^:?*\[\\]+$"),
                   AfterValidator(_ref)]
ProjectDirectory = Annotated[str, Field(max_length=512, pattern=r"^[^\\]*$"), AfterValidator(_directory)]


class GitInfo(BaseModel):
    """UpdateSpaceGitInfo: what the space's `gitSync` shows about the provider."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    provider: Literal["github", "gitlab"] | None = None
    url: Annotated[str, Field(max_length=2048)] | None = None


class GitSyncBody(Body):
    url: RepositoryUrl
    ref: GitRef
    repoCacheID: Annotated[str, Field(max_length=256)] | None = None
    repoTreeURL: Annotated[str, Field(max_length=2048)] | None = None
    repoCommitURL: Annotated[str, Field(max_length=2048)] | None = None
    repoProjectDirectory: ProjectDirectory | None = None
    timestamp: datetime | None = None
    force: bool | None = None
    gitInfo: GitInfo | None = None


class ImportGitRepository(GitSyncBody):
    standalone: bool | None = None


class ExportToGitRepository(GitSyncBody):
    commitMessage: Annotated[str, Field(min_length=1, max_length=65536)]
