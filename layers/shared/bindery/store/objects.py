"""Where bytes live: S3 (`BINDERY_BUCKET`), or, when `BINDERY_BLOB_DIR` is set (the local runner without
an S3: local.engine.blob_store decides), files under that directory with the same keys. One protocol,
so that content storage (store.blobs), search indexes and the purge of a deleted space never ask which.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol
from urllib.parse import quote, urlencode, urlsplit

from botocore.exceptions import ClientError

from bindery.platform.aws import s3_client
from bindery.platform.config import settings

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectIdentifierTypeDef

URL_EXPIRY_SECONDS = 3600
BLOB_DIR_ENV = "BINDERY_BLOB_DIR"
# Where the local runner serves the blob directory over HTTP (local/blob_files.py), beside /v1.
LOCAL_BLOB_PATH = "/_local/blobs/"


# Uploaded bytes are the uploader's: a type a browser would run (HTML, SVG, XML, scripts) must never be
# rendered inline where a reader opens the URL. These are shown inline; anything else is a download. The
# declared type is kept either way (a page's `<img>` of an SVG needs `image/svg+xml`, and the attachment
# disposition is what stops a browser from opening it as a document); only a type that is not a plain
# `type/subtype` token becomes octet-stream.
INLINE_TYPES = re.compile(r"(image/(png|jpeg|gif|webp|avif|bmp|x-icon)|application/pdf|text/plain|"
                          r"(audio|video)/[a-z0-9.+-]{1,64})")
MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}")
DOWNLOAD_TYPE = "application/octet-stream"


@dataclass(frozen=True)
class Served:
    """How a file's URL serves it: `Content-Type` and `Content-Disposition`, never raw text."""

    content_type: str
    disposition: str


def served_as(name: str, content_type: str) -> Served:
    """Inline for the allow-listed types, an attachment for anything else; the type as declared when it is
    a plain `type/subtype`, else octet-stream; the name percent-encoded (RFC 6266), so neither value can
    carry a line break into a header."""
    kind = content_type.strip().lower()
    inline = INLINE_TYPES.fullmatch(kind) is not None
    return Served(kind if MEDIA_TYPE.fullmatch(kind) else DOWNLOAD_TYPE,
                  f"{'inline' if inline else 'attachment'}; filename*=UTF-8''{quote(name, safe='')}")


class MissingObject(LookupError):
    """An object a copy was asked to read does not exist."""


class ObjectStore(Protocol):
    def put(self, key: str, data: bytes) -> None: ...

    def get(self, key: str) -> bytes | None: ...

    def url(self, key: str, *, name: str, content_type: str) -> str: ...

    def copy(self, source: str, target: str) -> None: ...

    def put_stream(self, key: str, stream: BinaryIO) -> None: ...

    def delete_prefix(self, prefix: str) -> int: ...


class S3Objects:
    def put(self, key: str, data: bytes) -> None:
        s3_client().put_object(Bucket=settings().blob_bucket, Key=key, Body=data)

    def get(self, key: str) -> bytes | None:
        try:
            response = s3_client().get_object(Bucket=settings().blob_bucket, Key=key)
        except ClientError as error:
            if error.response["Error"]["Code"] in ("NoSuchKey", "404"):
                return None
            raise
        return response["Body"].read()

    def url(self, key: str, *, name: str, content_type: str) -> str:
        """A presigned GET (computed here, no request), served with the file's own name and type: one
        object serves every file with the same bytes."""
        served = served_as(name, content_type)
        return s3_client().generate_presigned_url("get_object", ExpiresIn=URL_EXPIRY_SECONDS, Params={
            "Bucket": settings().blob_bucket, "Key": key, "ResponseContentType": served.content_type,
            "ResponseContentDisposition": served.disposition})

    def copy(self, source: str, target: str) -> None:
        bucket = settings().blob_bucket
        s3_client().copy_object(Bucket=bucket, Key=target, CopySource={"Bucket": bucket, "Key": source})

    def put_stream(self, key: str, stream: BinaryIO) -> None:
        """A multipart upload of 8 MB parts, one part in memory at a time (no thread pool: its parts
        would be in memory together), so a large file never sits whole in a request body."""
        from boto3.s3.transfer import TransferConfig  # only Git Sync streams; other functions never

        s3_client().upload_fileobj(stream, settings().blob_bucket, key,
                                   Config=TransferConfig(use_threads=False))

    def delete_prefix(self, prefix: str) -> int:
        """Delete every object under `prefix`, a listing page (up to 1,000 keys) and one DeleteObjects at a
        time; what a failed call leaves is found again by the next call."""
        s3, bucket, deleted = s3_client(), settings().blob_bucket, 0
        while True:
            listing = s3.list_objects_v2(Bucket=bucket, Prefix=prefix)
            names: list[ObjectIdentifierTypeDef] = [{"Key": entry["Key"]}
                                                    for entry in listing.get("Contents", [])]
            if not names:
                return deleted
            response = s3.delete_objects(Bucket=bucket, Delete={"Objects": names, "Quiet": True})
            if response.get("Errors"):
                raise RuntimeError(f"S3 refused to delete {len(response['Errors'])} objects under {prefix}")
            deleted += len(names)


@dataclass(frozen=True)
class DirectoryObjects:
    """Bytes as files under `root` (the local runner without S3); written whole or not at all."""

    root: Path

    def _partial(self, key: str) -> Path:
        """Where the bytes of `key` are written before they replace it: readers never see half a file."""
        path = self.root / key
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.partial")

    def put(self, key: str, data: bytes) -> None:
        partial = self._partial(key)
        partial.write_bytes(data)
        partial.replace(self.root / key)

    def get(self, key: str) -> bytes | None:
        try:
            return (self.root / key).read_bytes()
        except FileNotFoundError:
            return None

    def url(self, key: str, *, name: str, content_type: str) -> str:
        """Through the local runner's HTTP server when it says where it listens (BINDERY_PUBLIC_URL),
        else the file itself."""
        public = settings().public_url
        if not public:
            return (self.root / key).resolve().as_uri()
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(public))
        return (f"{origin}{LOCAL_BLOB_PATH}{quote(key)}?"
                f"{urlencode({'type': content_type, 'name': name})}")

    def copy(self, source: str, target: str) -> None:
        data = self.get(source)
        if data is None:
            raise MissingObject(f"{source} does not exist")
        self.put(target, data)

    def put_stream(self, key: str, stream: BinaryIO) -> None:
        path = self._partial(key)
        with path.open("wb") as out:
            shutil.copyfileobj(stream, out)
        path.replace(self.root / key)

    def delete_prefix(self, prefix: str) -> int:
        files = [path for path in (self.root / prefix).rglob("*") if path.is_file()] \
            if (self.root / prefix).is_dir() else []
        for path in files:
            path.unlink(missing_ok=True)
        if (self.root / prefix).is_dir():
            shutil.rmtree(self.root / prefix, ignore_errors=True)
        return len(files)


def object_store() -> ObjectStore:
    directory = os.environ.get(BLOB_DIR_ENV)
    return DirectoryObjects(Path(directory)) if directory else S3Objects()
