"""The local runner's stand-in for S3's presigned GETs: when bytes live in the blob directory
(`BINDERY_BLOB_DIR`: the runner without an S3, see local.engine.blob_store), `store.blobs` hands out URLs
under `/_local/blobs/` and this serves them, with the content type and file name the URL names, through
the same rule as S3's presigned URLs (`store.objects.served_as`): only allow-listed types inline, anything
else an attachment, `nosniff` always, and no query text copied into a header as it came.

Keys are content hashes (`spaces/{spaceId}/files/{sha256}`), so a URL is as hard to guess as S3's
presigned ones are to forge; the runner listens on loopback only. Nothing outside the directory is served.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from bindery.store.objects import BLOB_DIR_ENV, LOCAL_BLOB_PATH, served_as
from local.gateway import Reply


def is_blob_path(target: str) -> bool:
    return target.startswith(LOCAL_BLOB_PATH)


def _error(status: int, message: str) -> Reply:
    body = json.dumps({"error": {"code": status, "message": message}}).encode()
    return Reply(status, {"Content-Type": "application/json"}, body)


def serve(method: str, target: str) -> Reply:
    if method not in ("GET", "HEAD"):
        return _error(405, "Blobs are read-only")
    directory = os.environ.get(BLOB_DIR_ENV)
    if not directory:
        return _error(404, "This runner keeps bytes in S3: use the URLs the API gives")
    parts = urlsplit(target)
    root = Path(directory).resolve()
    path = (root / unquote(parts.path[len(LOCAL_BLOB_PATH):])).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        return _error(404, "No such blob")
    query = {name: values[0] for name, values in parse_qs(parts.query).items()}
    served = served_as(query.get("name") or path.name, query.get("type") or "")
    headers = {"Content-Type": served.content_type, "Content-Disposition": served.disposition,
               "X-Content-Type-Options": "nosniff"}
    return Reply(200, headers, path.read_bytes())
