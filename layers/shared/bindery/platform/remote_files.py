"""Fetching a file a caller names by URL (`insert_files` with `url` in a change request's content batch).

The URL goes through `url_policy.check_url` (http(s) only, never `file://`; public addresses only unless
`allow_private_hosts`), and so does every redirect it answers with, before Bindery follows it: a public
host must not be able to bounce the fetch onto the deployment's own network. At most `MAX_REDIRECTS`
redirects, `TIMEOUT` seconds per connection, and the body is read up to the caller's size limit plus one
byte, so an endless or huge response costs no more than that. Every failure is a `RemoteFileError` (a
400 naming the field) whose message shows the URL without credentials.
"""

from __future__ import annotations

import mimetypes
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.client import HTTPMessage
from typing import IO, Any

from bindery.platform.errors import BadRequest
from bindery.platform.url_policy import check_url, redact

TIMEOUT = 10.0
MAX_REDIRECTS = 5
USER_AGENT = "Bindery file fetcher"


class RemoteFileError(BadRequest):
    """The file could not be fetched; the message names the field."""


class RemoteFileTimeout(RemoteFileError):
    """The server did not answer (or finish answering) in time."""


def _timed_out(error: BaseException) -> bool:
    reason = getattr(error, "reason", None)
    return isinstance(error, TimeoutError) or isinstance(reason, TimeoutError)


@dataclass(frozen=True)
class Fetched:
    data: bytes
    content_type: str | None  # the response's, without parameters; None when it gave none


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to a URL the policy allows, and only `MAX_REDIRECTS` times."""

    max_redirections = MAX_REDIRECTS

    def __init__(self, field: str) -> None:
        self.field = field

    def redirect_request(  # noqa: PLR0917 - urllib calls it with these six positionals
            self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: HTTPMessage,
            newurl: str) -> urllib.request.Request | None:
        check_url(newurl, self.field, files_allowed=False)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _open(url: str, field: str, timeout: float = TIMEOUT) -> Any:
    """The response (a context manager with `read`, `headers`); the network's only entry point here."""
    opener = urllib.request.build_opener(_CheckedRedirects(field))
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})  # noqa: S310 - checked
    return opener.open(request, timeout=timeout)


def fetch(url: str, field: str, *, max_bytes: int, timeout: float = TIMEOUT) -> Fetched:
    """The bytes at `url` (at most `max_bytes`) and the content type the server gave. `timeout` bounds
    each blocking step (connecting, each read), as urllib's timeout does."""
    check_url(url, field, files_allowed=False)
    shown = redact(url)
    try:
        with _open(url, field, timeout) as response:
            data = response.read(max_bytes + 1)
            header = response.headers.get("Content-Type")
    except urllib.error.HTTPError as error:
        raise RemoteFileError(f"{field}: {shown} answered HTTP {error.code}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        if _timed_out(error):
            raise RemoteFileTimeout(f"{field}: {shown} did not answer within {timeout:g} s") from None
        reason = getattr(error, "reason", error)
        raise RemoteFileError(f"{field}: {shown} could not be fetched ({reason})") from None
    if len(data) > max_bytes:
        raise RemoteFileError(f"{field}: {shown} is larger than {_size(max_bytes)}")
    content_type = header.split(";", 1)[0].strip().lower() if header else None
    return Fetched(data, content_type or None)


def _size(count: int) -> str:
    mb = 1024 * 1024
    return f"{count // mb} MB" if count % mb == 0 else f"{count} bytes"


def guessed_type(name: str) -> str:
    """A content type from a file name, for a server that gave none."""
    return mimetypes.guess_type(name)[0] or "application/octet-stream"
