"""Processing a specification's source (the worker's side; docs/openapi.md).

One message per job (`OpenAPIProcessMessage`). The spec is claimed for the job first (pending → progress,
a conditional write): a message for a job the spec no longer has (a newer PUT, a deleted spec), or that
another delivery holds or finished, claims nothing and is dropped. Then the source is read (a URL through
bindery.platform.remote_files — the URL policy, checked redirects, a timeout, a size cap — with every file its
`$ref`s name; a text from the object store), parsed and validated (bindery.engines.openapi), and the spec
moves to `complete` in one transaction with either a new version (its files written first), or its errors and
no version (the previous version stays the latest), or — when the documents are those of the last
version — neither.

An unexpected failure (a bug, a service error) puts the spec back to pending and fails the message, so
that SQS delivers it again; on the last delivery (the queue's maxReceiveCount) the spec records the
failure and the message goes on to the dead-letter queue.
"""

from __future__ import annotations

from datetime import timedelta

from aws_lambda_powertools import Logger

from bindery.engines.openapi import filesystem, validation
from bindery.engines.openapi.errors import ProcessingFailed, SpecError
from bindery.engines.openapi.filesystem import Filesystem
from bindery.platform import clock, remote_files
from bindery.platform.config import settings
from bindery.platform.errors import BadRequest
from bindery.platform.ids import new_id
from bindery.platform.messages import OpenAPIProcessMessage
from bindery.store import openapi_specs as spec_store
from bindery.store.openapi_specs import Outcome, Spec, Version

logger = Logger(service="openapi")
MAX_ATTEMPTS = 3  # template.yaml: OpenAPIProcessingQueue's maxReceiveCount
# A worker runs at most 300 s (template.yaml): a job claimed longer ago than this lost its worker.
STALE_AFTER = timedelta(seconds=600)
INTERNAL = SpecError("The specification could not be processed because of an internal error; "
                     "update it to try again.", "INTERNAL_ERROR")


def fetch(url: str) -> bytes:
    """One file of a URL source, or ProcessingFailed with the official error code."""
    conf = settings()
    try:
        return remote_files.fetch(url, "source.url", max_bytes=conf.openapi_max_bytes,
                                  timeout=conf.openapi_fetch_timeout).data
    except remote_files.RemoteFileTimeout as error:
        raise ProcessingFailed("FETCH_TIMEOUT", [SpecError(error.message, "FETCH_TIMEOUT")]) from None
    except BadRequest as error:  # refused by the URL policy (the URL or a redirect), HTTP errors, size
        raise ProcessingFailed("FETCH_ERROR", [SpecError(error.message, "FETCH_ERROR")]) from None


def read_source(spec: Spec) -> Filesystem:
    if spec.source_url:
        return filesystem.from_url(spec.source_url, fetch)
    data = spec_store.get_source_text(spec.id, spec.source_digest or "")
    if data is None:
        raise RuntimeError(f"the text source of OpenAPI spec {spec.id} is missing")
    return filesystem.from_text(data)


def outcome_of(spec: Spec) -> Outcome:
    """What processing the spec's source comes to; a new version's files are written here."""
    now = clock.now_iso()
    try:
        files = read_source(spec)
        validation.validate(files)
    except ProcessingFailed as failed:
        errors = [error.to_wire() for error in failed.errors] or [{"message": failed.code}]
        return Outcome(now, error_code=failed.code, errors=errors)
    digest = files.digest()
    if digest == spec.last_digest:
        return Outcome(now)  # the documents of the latest version: nothing new to keep
    version_id = new_id()
    prefix = spec_store.version_prefix(spec.id, version_id)
    spec_store.put_version_files(prefix, files.root, files.root_bytes, files.files)
    return Outcome(now, version=Version(id=version_id, spec_id=spec.id, created_at=now, digest=digest,
                                        root=files.root, objects=prefix))


def process(message: OpenAPIProcessMessage, *, delivery: int) -> str | None:
    """Process the job a message names (its `delivery`-th delivery); the state it left the spec in, or
    None when there was nothing to do. Raises (the message fails) on an unexpected error."""
    spec = spec_store.get_spec(message.organizationId, message.slug)
    if spec is None or spec.id != message.specId or spec.job != message.job:
        logger.info("OpenAPI job superseded", extra={"specId": message.specId, "job": message.job})
        return None
    now = clock.now()
    if not spec_store.claim(spec, clock.iso(now), clock.iso(now - STALE_AFTER)):
        logger.info("OpenAPI job already claimed or done", extra={"specId": spec.id, "job": spec.job})
        return None
    try:
        outcome = outcome_of(spec)
    except Exception:
        if delivery >= MAX_ATTEMPTS:
            spec_store.finish(spec, Outcome(clock.now_iso(), errors=[INTERNAL.to_wire()]))
        else:
            spec_store.release(spec)
        raise
    if not spec_store.finish(spec, outcome):
        # Replaced or deleted meanwhile: nothing was written, and a new version's files serve no one.
        if outcome.version is not None:
            spec_store.delete_prefix(outcome.version.objects)
        return None
    return "complete"
