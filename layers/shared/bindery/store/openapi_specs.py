"""OpenAPI specifications and their versions (keys in bindery.keys.openapi; docs/openapi.md).

    {PK: ORG#{orgId}, SK: OPENAPI#{slug}, type: "openapi-spec", id, orgId, slug, createdAt, updatedAt,
     createdBy, visibility, sourceURL? | sourceDigest? (a text source, its bytes in S3), processingState,
     job, claimedAt?, lastVersion?, lastDigest?, lastProcessedAt?, lastProcessErrorCode?,
     lastProcessedErrors?, versionCount}
    {PK: ORG#{orgId}, SK: OPENAPIID#{id}, type: "openapi-spec-alias", slug}
    {PK: OPENAPI#{specId}, SK: VERSION#{versionId}, type: "openapi-spec-version", id, specId, createdAt,
     digest, root, objects}

Processing is a state machine moved only by conditional writes on the spec's `job` (the id of the
processing the last create or PUT asked for), which is what makes the worker idempotent:

    pending --claim--> progress --finish--> complete
    progress --release (a failure worth another delivery)--> pending
    progress (claimed longer ago than a worker runs) --claim--> progress (a crashed worker's job)

A PUT gives the spec a new job: the older job's claim or finish then fails its condition and changes
nothing. The organization's `openapiSpecCount` moves in the transactions that create and delete specs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.keys import openapi as openapi_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.objects import object_store
from bindery.store.table import Item

NEW = "attribute_not_exists(PK)"
EXISTS = "attribute_exists(PK)"


@dataclass
class Spec:
    id: str
    org_id: str
    slug: str
    created_at: str
    updated_at: str
    created_by: str
    job: str
    visibility: str = "private"
    source_url: str | None = None
    source_digest: str | None = None
    processing_state: str = "pending"
    claimed_at: str | None = None
    last_version: str | None = None
    last_root: str | None = None  # the last version's root document (its URL needs no other read)
    last_digest: str | None = None
    last_processed_at: str | None = None
    last_error_code: str | None = None
    last_errors: list[dict[str, str]] = field(default_factory=list)
    version_count: int = 0

    _FIELDS = ItemFields(
        ("id", "id"), ("org_id", "orgId"), ("slug", "slug"), ("created_at", "createdAt"),
        ("updated_at", "updatedAt"), ("created_by", "createdBy"), ("job", "job"),
        ("visibility", "visibility"), ("source_url", "sourceURL"), ("source_digest", "sourceDigest"),
        ("processing_state", "processingState"), ("claimed_at", "claimedAt"), ("last_version", "lastVersion"),
        ("last_root", "lastRoot"), ("last_digest", "lastDigest"), ("last_processed_at", "lastProcessedAt"),
        ("last_error_code", "lastProcessErrorCode"), ("last_errors", "lastProcessedErrors"),
        ("version_count", "versionCount"), omit_empty=("last_errors",),
    )

    def to_item(self) -> Item:
        return {**openapi_keys.spec(self.org_id, self.slug), "type": "openapi-spec",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Spec:
        return cls(**cls._FIELDS.values(item))


@dataclass(frozen=True)
class Version:
    id: str
    spec_id: str
    created_at: str
    digest: str  # of the version's filesystem (canonical JSON): an unchanged source makes no version
    root: str  # the root document's name in the filesystem
    objects: str  # the S3 prefix of its files

    @property
    def root_object(self) -> str:
        return root_object(self.objects, self.root)

    def to_item(self) -> Item:
        return {**openapi_keys.version(self.spec_id, self.id), "type": "openapi-spec-version",
                "id": self.id, "specId": self.spec_id, "createdAt": self.created_at, "digest": self.digest,
                "root": self.root, "objects": self.objects}

    @classmethod
    def from_item(cls, item: Item) -> Version:
        return cls(id=item["id"], spec_id=item["specId"], created_at=item["createdAt"],
                   digest=item["digest"], root=item["root"], objects=item["objects"])


# --- the objects: text sources and versions' files ---------------------------------------------------------
FILESYSTEM = "filesystem.json"


def root_object(prefix: str, root: str) -> str:
    """The root document as it was read (a version's `url` serves it)."""
    return f"{prefix}files/{root}"


def put_source_text(spec_id: str, digest: str, data: bytes) -> None:
    object_store().put(openapi_keys.source_object(spec_id, digest), data)


def get_source_text(spec_id: str, digest: str) -> bytes | None:
    return object_store().get(openapi_keys.source_object(spec_id, digest))


def version_prefix(spec_id: str, version_id: str) -> str:
    return openapi_keys.version_objects(spec_id, version_id)


def put_version_files(prefix: str, root: str, root_bytes: bytes, files: dict[str, Any]) -> None:
    """A version's filesystem (one JSON object) and its root document's bytes, written before the
    version item that names them."""
    store = object_store()
    store.put(root_object(prefix, root), root_bytes)
    store.put(prefix + FILESYSTEM, json.dumps(files, separators=(",", ":")).encode())


def get_version_files(version: Version) -> dict[str, Any] | None:
    data = object_store().get(version.objects + FILESYSTEM)
    files: dict[str, Any] | None = json.loads(data) if data is not None else None
    return files


def root_url(prefix: str, root: str) -> str:
    """A URL serving the root document (presigned, computed here without a request)."""
    kind = "application/json" if root.endswith(".json") else "application/yaml"
    return object_store().url(root_object(prefix, root), name=root, content_type=kind)


def delete_objects(spec_id: str) -> None:
    object_store().delete_prefix(openapi_keys.objects_prefix(spec_id))


def delete_prefix(prefix: str) -> None:
    object_store().delete_prefix(prefix)


# --- reads -----------------------------------------------------------------------------------------------
def get_spec(org_id: str, slug: str) -> Spec | None:
    item = table.get(openapi_keys.spec(org_id, slug))
    return Spec.from_item(item) if item else None


def get_spec_by_ref(org_id: str, ref: str) -> Spec | None:
    """A spec named by slug or by id (content references use either): one BatchGetItem of both keys,
    then one GetItem by the slug the alias names when `ref` was an id."""
    found = table.batch_get([openapi_keys.spec(org_id, ref), openapi_keys.spec_alias(org_id, ref)])
    by_type = {item["type"]: item for item in found}
    if "openapi-spec" in by_type:
        return Spec.from_item(by_type["openapi-spec"])
    alias = by_type.get("openapi-spec-alias")
    return get_spec(org_id, alias["slug"]) if alias else None


def specs_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the organization's specs by slug."""
    return table.Query(keys.org_partition(org_id), prefix=openapi_keys.SPEC_PREFIX, limit=limit,
                       start_key=start_key).run()


def get_version(spec_id: str, version_id: str) -> Version | None:
    item = table.get(openapi_keys.version(spec_id, version_id))
    return Version.from_item(item) if item else None


def versions_page(spec_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of a spec's versions, newest first."""
    return table.Query(openapi_keys.versions_partition(spec_id), prefix=openapi_keys.VERSION_PREFIX,
                       forward=False, limit=limit, start_key=start_key).run()


# --- writes from the API ---------------------------------------------------------------------------------
def create_ops(spec: Spec) -> list[table.Op]:
    """The spec (its slug must be free), its id alias and the organization's count, in one transaction."""
    return [
        table.put_op(spec.to_item(), NEW, name="spec"),
        table.put_op({**openapi_keys.spec_alias(spec.org_id, spec.id), "type": "openapi-spec-alias",
                      "slug": spec.slug}, name="alias"),
        table.update_op(keys.org(spec.org_id), "ADD openapiSpecCount :n", {":n": 1}, EXISTS, name="org"),
    ]


def new_source_op(spec: Spec, seen_job: str) -> table.Op:
    """A PUT's new source: back to pending under a new job (`spec.job`), if no other PUT came first."""
    sets = {"sourceURL": spec.source_url, "sourceDigest": spec.source_digest}
    present = {name: value for name, value in sets.items() if value is not None}
    removes = [name for name, value in sets.items() if value is None]
    names = {f"#{name}": name for name in (*present, *removes)}
    values: dict[str, Any] = {f":{name}": value for name, value in present.items()}
    values.update({":job": spec.job, ":seen": seen_job, ":pending": "pending", ":now": spec.updated_at})
    expression = "SET job = :job, processingState = :pending, updatedAt = :now" + "".join(
        f", #{name} = :{name}" for name in present)
    removes.append("claimedAt")
    names["#claimedAt"] = "claimedAt"
    expression += " REMOVE " + ", ".join(f"#{name}" for name in removes)
    return table.update_op(openapi_keys.spec(spec.org_id, spec.slug), expression, values,
                           "job = :seen", names, name="spec")


def visibility_op(spec: Spec) -> table.Op:
    return table.update_op(openapi_keys.spec(spec.org_id, spec.slug),
                           "SET visibility = :v, updatedAt = :now",
                           {":v": spec.visibility, ":now": spec.updated_at, ":id": spec.id}, "id = :id",
                           name="spec")


def delete_ops(spec: Spec) -> list[table.Op]:
    return [
        table.delete_op(openapi_keys.spec(spec.org_id, spec.slug), "id = :id", {":id": spec.id}, name="spec"),
        table.delete_op(openapi_keys.spec_alias(spec.org_id, spec.id), name="alias"),
        table.update_op(keys.org(spec.org_id), "ADD openapiSpecCount :n", {":n": -1}, EXISTS, name="org"),
    ]


def delete_versions(spec_id: str) -> None:
    """Every version item of a deleted spec (nothing reaches them once the spec is gone): a Query and a
    BatchWriteItem per page."""
    start: dict[str, Any] | None = None
    while True:
        page = versions_page(spec_id, 1000, start)
        table.batch_delete([openapi_keys.version(spec_id, item["id"]) for item in page.items])
        if not page.last_key:
            return
        start = page.last_key


# --- the worker's transitions ------------------------------------------------------------------------------
def _spec_key(spec: Spec) -> keys.Key:
    return openapi_keys.spec(spec.org_id, spec.slug)


def claim(spec: Spec, now: str, stale_before: str) -> bool:
    """pending (or a stale progress) → progress, for this job only; False when another delivery has it,
    it is done, or a newer job replaced it."""
    try:
        table.Transaction(table.update_op(
            _spec_key(spec), "SET processingState = :progress, claimedAt = :now",
            {":progress": "progress", ":pending": "pending", ":now": now, ":job": spec.job,
             ":stale": stale_before},
            "job = :job AND (processingState = :pending"
            " OR (processingState = :progress AND claimedAt < :stale))",
            name="claim")).commit()
    except table.TransactionConflict:
        return False
    return True


def release(spec: Spec) -> bool:
    """progress → pending (the next delivery claims it again); False when the job was replaced."""
    try:
        table.Transaction(table.update_op(
            _spec_key(spec), "SET processingState = :pending REMOVE claimedAt",
            {":pending": "pending", ":progress": "progress", ":job": spec.job},
            "job = :job AND processingState = :progress", name="release")).commit()
    except table.TransactionConflict:
        return False
    return True


@dataclass(frozen=True)
class Outcome:
    """How a processing ended: a new version, or errors, or neither (an unchanged source)."""

    processed_at: str
    version: Version | None = None
    error_code: str | None = None
    errors: list[dict[str, str]] = field(default_factory=list)


def finish(spec: Spec, outcome: Outcome) -> bool:
    """progress → complete for this job, with the version (in the same transaction) or the errors;
    False when the job was replaced or the spec deleted meanwhile (nothing is written then)."""
    values: dict[str, Any] = {":complete": "complete", ":progress": "progress", ":job": spec.job,
                              ":at": outcome.processed_at}
    sets = ["processingState = :complete", "lastProcessedAt = :at"]
    removes = ["claimedAt"]
    if outcome.errors:
        sets += ["lastProcessedErrors = :errors"]
        values[":errors"] = outcome.errors
        if outcome.error_code:
            sets.append("lastProcessErrorCode = :code")
            values[":code"] = outcome.error_code
        else:
            removes.append("lastProcessErrorCode")
    else:
        removes += ["lastProcessErrorCode", "lastProcessedErrors"]
    ops: list[table.Op] = []
    expression_tail = ""
    if outcome.version is not None:
        sets += ["lastVersion = :version", "lastDigest = :digest", "lastRoot = :root"]
        values.update({":version": outcome.version.id, ":digest": outcome.version.digest,
                       ":root": outcome.version.root, ":one": 1})
        expression_tail = " ADD versionCount :one"
        ops.append(table.put_op(outcome.version.to_item(), NEW, name="version"))
    expression = "SET " + ", ".join(sets) + " REMOVE " + ", ".join(removes) + expression_tail
    ops.append(table.update_op(_spec_key(spec), expression, values,
                               "job = :job AND processingState = :progress", name="finish"))
    try:
        table.Transaction(ops).commit()
    except table.TransactionConflict:
        return False
    return True
