"""Translations (keys in bindery.keys.translations; docs/translations.md).

    {PK: ORG#{orgId}, SK: TRANSLATION#{id}, type: "translation", id, orgId, createdAt, updatedAt, createdBy,
     sourceSpace, sourceLanguage, language, instructions?, status, job?, claimedAt?, rerun?, resultSpace?,
     resultRevision?, sourceRevision?, stateObject?, stats, lastRunError? {code, message, at}}

Runs are a state machine moved only by conditional writes on `job` (the id of the run last asked for),
which is what makes the worker idempotent:

    completed --run--> pending --claim--> running --finish/fail--> completed
    running --run--> running with `rerun` (the run ending queues one more: no parallel runs)
    running --release (a failure worth another delivery)--> pending
    running (claimed longer ago than a worker runs) --claim--> running (a crashed worker's job)

The organization's `translationCount` moves in the transactions that create and delete translations.
A run's page fingerprints (what the next run compares against) are one S3 object per run (`stateObject`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.keys import translations as translation_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.objects import object_store
from bindery.store.table import Item

NEW = "attribute_not_exists(PK)"
EXISTS = "attribute_exists(PK)"
STATS = ("runs", "totalWords", "totalPages", "totalDuration", "latestRunDuration", "latestPages",
         "latestWords")


def empty_stats() -> dict[str, int]:
    return dict.fromkeys(STATS, 0)


@dataclass
class Translation:
    id: str
    org_id: str
    created_at: str
    updated_at: str
    created_by: str
    source_space: str
    source_language: str
    language: str
    instructions: dict[str, Any] | None = None
    status: str = "pending"
    job: str | None = None
    claimed_at: str | None = None
    rerun: bool | None = None
    result_space: str | None = None
    result_revision: str | None = None
    source_revision: str | None = None
    state_object: str | None = None
    stats: dict[str, int] = field(default_factory=empty_stats)
    last_error: dict[str, str] | None = None

    _FIELDS = ItemFields(
        ("id", "id"), ("org_id", "orgId"), ("created_at", "createdAt"), ("updated_at", "updatedAt"),
        ("created_by", "createdBy"), ("source_space", "sourceSpace"), ("source_language", "sourceLanguage"),
        ("language", "language"), ("instructions", "instructions"), ("status", "status"), ("job", "job"),
        ("claimed_at", "claimedAt"), ("rerun", "rerun"), ("result_space", "resultSpace"),
        ("result_revision", "resultRevision"), ("source_revision", "sourceRevision"),
        ("state_object", "stateObject"), ("stats", "stats"), ("last_error", "lastRunError"),
    )

    def to_item(self) -> Item:
        return {**translation_keys.translation(self.org_id, self.id), "type": "translation",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Translation:
        values = cls._FIELDS.values(item)
        stats = {name: int(values.get("stats", {}).get(name, 0)) for name in STATS}
        return cls(**{**values, "stats": stats})

    @property
    def key(self) -> keys.Key:
        return translation_keys.translation(self.org_id, self.id)


# --- reads -----------------------------------------------------------------------------------------------
def get_translation(org_id: str, translation_id: str) -> Translation | None:
    item = table.get(translation_keys.translation(org_id, translation_id))
    return Translation.from_item(item) if item else None


def translations_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the organization's translations, in creation order."""
    return table.Query(keys.org_partition(org_id), prefix=translation_keys.TRANSLATION_PREFIX, limit=limit,
                       start_key=start_key).run()


# --- writes from the API ---------------------------------------------------------------------------------
def create_ops(translation: Translation) -> list[table.Op]:
    return [
        table.put_op(translation.to_item(), NEW, name="translation"),
        table.update_op(keys.org(translation.org_id), "ADD translationCount :n", {":n": 1}, EXISTS,
                        name="org"),
    ]


def instructions_op(translation: Translation) -> table.Op:
    return table.update_op(translation.key, "SET instructions = :i, updatedAt = :now",
                           {":i": translation.instructions, ":now": translation.updated_at}, EXISTS,
                           name="translation")


def delete_ops(translation: Translation) -> list[table.Op]:
    return [
        table.delete_op(translation.key, "id = :id", {":id": translation.id}, name="translation"),
        table.update_op(keys.org(translation.org_id), "ADD translationCount :n", {":n": -1}, EXISTS,
                        name="org"),
    ]


def queue_op(translation: Translation, seen_job: str | None, new_job: str, now: str) -> table.Op:
    """completed → pending under a new job, if nothing moved it since it was read."""
    values: dict[str, Any] = {":pending": "pending", ":job": new_job, ":now": now, ":completed": "completed"}
    condition = "#status = :completed AND "
    if seen_job is None:
        condition += "attribute_not_exists(job)"
    else:
        condition += "job = :seen"
        values[":seen"] = seen_job
    return table.update_op(translation.key, "SET #status = :pending, job = :job, updatedAt = :now "
                           "REMOVE claimedAt, rerun", values, condition, {"#status": "status"},
                           name="translation")


def unqueue_op(translation: Translation, queued_job: str, seen_job: str | None) -> table.Op:
    """pending → completed again under the job it had (`queue_op` undone), if no worker claimed the job
    meanwhile: for a run whose message could not be sent, so that it is not left pending for good."""
    values: dict[str, Any] = {":pending": "pending", ":queued": queued_job, ":completed": "completed"}
    if seen_job is None:
        expression = "SET #status = :completed REMOVE job"
    else:
        expression, values[":seen"] = "SET #status = :completed, job = :seen", seen_job
    return table.update_op(translation.key, expression, values, "#status = :pending AND job = :queued",
                           {"#status": "status"}, name="translation")


def rerun_op(translation: Translation, seen_job: str) -> table.Op:
    """While a run is running: ask for one more when it ends."""
    return table.update_op(translation.key, "SET rerun = :yes", {":yes": True, ":job": seen_job,
                                                                   ":running": "running"},
                           "job = :job AND #status = :running", {"#status": "status"}, name="translation")


# --- the worker's transitions ------------------------------------------------------------------------------
def _commit(*ops: table.Op) -> bool:
    try:
        table.Transaction(list(ops)).commit()
    except table.TransactionConflict:
        return False
    return True


def claim(translation: Translation, now: str, stale_before: str) -> bool:
    """pending (or a stale running) → running, for this job only."""
    assert translation.job is not None
    return _commit(table.update_op(
        translation.key, "SET #status = :running, claimedAt = :now",
        {":running": "running", ":pending": "pending", ":now": now, ":job": translation.job,
         ":stale": stale_before},
        "job = :job AND (#status = :pending OR (#status = :running AND claimedAt < :stale))",
        {"#status": "status"}, name="claim"))


def release(translation: Translation) -> bool:
    """running → pending (the next delivery claims it again)."""
    return _commit(table.update_op(
        translation.key, "SET #status = :pending REMOVE claimedAt",
        {":pending": "pending", ":running": "running", ":job": translation.job},
        "job = :job AND #status = :running", {"#status": "status"}, name="release"))


def running_condition(translation: Translation) -> tuple[str, dict[str, Any]]:
    return ("job = :job AND #status = :running", {":job": translation.job, ":running": "running"})


def result_space_op(translation: Translation, space_id: str) -> table.Op:
    """A new result space (created in the same transaction): the run's fingerprints start over."""
    condition, values = running_condition(translation)
    return table.update_op(translation.key, "SET resultSpace = :space REMOVE resultRevision, sourceRevision, "
                           "stateObject", {**values, ":space": space_id}, condition, {"#status": "status"},
                           name="translation")


@dataclass(frozen=True)
class Ending:
    """How a run ended: what the translation records, and whether it goes on (`next_job`: a run was asked
    for while this one ran)."""

    at: str
    next_job: str | None
    stats: dict[str, int] | None = None
    result_revision: str | None = None
    source_revision: str | None = None
    state_object: str | None = None
    error: dict[str, str] | None = None


def end(translation: Translation, ending: Ending, *, rerun_seen: bool) -> bool:
    """running → completed (or pending under `next_job`), if this run still holds the job and `rerun` is
    as it was read; False otherwise (nothing is written)."""
    condition, values = running_condition(translation)
    condition += " AND attribute_exists(rerun)" if rerun_seen else " AND attribute_not_exists(rerun)"
    sets: dict[str, Any] = {"#status": "pending" if ending.next_job else "completed", "updatedAt": ending.at}
    if ending.next_job:
        sets["job"] = ending.next_job
    if ending.stats is not None:
        sets["stats"] = ending.stats
    for name, value in (("resultRevision", ending.result_revision),
                        ("sourceRevision", ending.source_revision), ("stateObject", ending.state_object)):
        if value is not None:
            sets[name] = value
    removes = ["claimedAt", "rerun"]
    if ending.error is not None:
        sets["lastRunError"] = ending.error
    else:
        removes.append("lastRunError")
    names = {"#status": "status"}
    expression = "SET " + ", ".join(
        f"{name} = :v{index}" for index, name in enumerate(sets)) + " REMOVE " + ", ".join(removes)
    values.update({f":v{index}": value for index, value in enumerate(sets.values())})
    return _commit(table.update_op(translation.key, expression, values, condition, names, name="end"))


# --- a run's fingerprints ----------------------------------------------------------------------------------
def put_state(translation_id: str, job: str, state: dict[str, Any]) -> str:
    name = translation_keys.run_state_object(translation_id, job)
    object_store().put(name, json.dumps(state, separators=(",", ":")).encode())
    return name


def get_state(name: str) -> dict[str, Any] | None:
    data = object_store().get(name)
    state: dict[str, Any] | None = json.loads(data) if data is not None else None
    return state


def delete_object(name: str) -> None:
    object_store().delete_prefix(name)  # the name is unique: its own prefix names only it


def delete_objects(translation_id: str) -> None:
    object_store().delete_prefix(translation_keys.objects_prefix(translation_id))
