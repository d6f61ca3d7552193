"""The bytes of the files a content batch uploads (`insert_files`), read once before the batch is applied.

Each file names exactly one source: `base64` (at most 1 MB, `contentType` required) or `url` (fetched by
bindery.platform.remote_files: public http(s) only, at most `MAX_URL_BYTES`; `contentType` overrides the
server's,
else the server's unless it is only an octet-stream (`UNTYPED`), else one guessed from the name). The
fetches of a batch run in parallel, and all of them together may bring at most `MAX_BATCH_BYTES`, so one
request stays within what a function holds in memory and within API Gateway's 29 seconds. Any failure is a
400 naming the file (`changes[i].files[j].url`), and nothing is written. Fetching before the batch is
applied also means a retried batch (a concurrent edit moved the change request) does not fetch twice.
"""

from __future__ import annotations

import base64
import binascii
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bindery.platform.errors import BadRequest
from bindery.platform.remote_files import Fetched, fetch, guessed_type
from bindery.requests.change_requests import ContentChange, InsertFiles, UploadedFile

MAX_BASE64_BYTES = 1024 * 1024
MAX_URL_BYTES = 20 * 1024 * 1024
MAX_BATCH_BYTES = 50 * 1024 * 1024
FETCHERS = 8
# What a server answers for bytes it knows no type of: S3's default for an object stored without one, and
# the generic type. The file's name says more (`copy.txt` is text/plain) and is used instead.
UNTYPED = frozenset({"binary/octet-stream", "application/octet-stream"})


@dataclass(frozen=True)
class Upload:
    data: bytes
    content_type: str


Uploads = dict[tuple[int, int], Upload]  # (change index, file index) -> the file's bytes


def _inline(upload: UploadedFile, where: str) -> Upload:
    if not upload.contentType:
        raise BadRequest(f"{where}.contentType: required with base64")
    try:
        data = base64.b64decode(upload.base64 or "", validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"{where}.base64: not valid base64") from None
    if len(data) > MAX_BASE64_BYTES:
        raise BadRequest(f"{where}.base64: larger than 1 MB")
    return Upload(data, upload.contentType)


def read_uploads(changes: list[ContentChange]) -> Uploads:
    uploads: Uploads = {}
    remote: dict[tuple[int, int], tuple[UploadedFile, str]] = {}
    for index, change in enumerate(changes):
        if not isinstance(change, InsertFiles):
            continue
        for number, upload in enumerate(change.files):
            where = f"changes[{index}].files[{number}]"
            if (upload.url is None) == (upload.base64 is None):
                raise BadRequest(f"{where}: set exactly one of url and base64")
            if upload.base64 is not None:
                uploads[(index, number)] = _inline(upload, where)
            else:
                remote[(index, number)] = (upload, f"{where}.url")
    if remote:
        with ThreadPoolExecutor(max_workers=min(FETCHERS, len(remote))) as pool:
            fetched = dict(zip(remote, pool.map(
                lambda item: fetch(str(item[0].url), item[1], max_bytes=MAX_URL_BYTES), remote.values()),
                strict=True))
        total = sum(len(result.data) for result in fetched.values())
        if total > MAX_BATCH_BYTES:
            raise BadRequest(f"changes: the files fetched by URL add up to more than "
                             f"{MAX_BATCH_BYTES // (1024 * 1024)} MB; upload them in several batches")
        for position, result in fetched.items():
            uploads[position] = Upload(result.data, _content_type(remote[position][0], result))
    return uploads


def _content_type(upload: UploadedFile, result: Fetched) -> str:
    if upload.contentType:
        return upload.contentType
    if result.content_type and result.content_type not in UNTYPED:
        return result.content_type
    return guessed_type(upload.name)
