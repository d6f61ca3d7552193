"""Git Sync runs: one item per import or export, in the space's partition.

    {PK: SPACE#{spaceId}, SK: GITRUN#{id}, type: "git-run", id, spaceId, kind (import|export),
     status (pending|running|succeeded|failed), url (credentials removed), ref, projectDirectory,
     standalone, commitMessage?, gitInfo?, createdBy, createdAt, updatedAt, claimedAt?, attempts,
     error?, revision?, commit?, warnings?, expiresAt}

The status only moves forward through conditional writes, which is what makes the worker idempotent:

    pending --claim--> running --finish--> succeeded | failed
    running --release (a retryable failure)--> pending
    running (claimed longer ago than a worker can run) --claim--> running (a crashed worker's run)

A message delivered again for a run that is already running elsewhere or finished claims nothing, and
the worker drops it. Runs expire (TTL) after RETENTION_SECONDS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

from bindery.keys import git_sync as git_keys
from bindery.platform.aws import dynamodb_table
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.table import TTL_ATTRIBUTE, Item

RETENTION_SECONDS = 90 * 24 * 3600
# An import's warnings are kept on its run, bounded so that the item stays small whatever the repository.
MAX_WARNINGS = 100
MAX_WARNING_CHARS = 300


@dataclass(frozen=True)
class GitRun:
    id: str
    space_id: str
    kind: str  # "import" | "export"
    url: str  # redacted: never holds credentials
    ref: str
    created_by: str
    created_at: str
    updated_at: str
    expires_at: int
    status: str = "pending"
    project_directory: str = ""
    standalone: bool = False
    commit_message: str | None = None
    git_info: dict[str, Any] = field(default_factory=dict)
    claimed_at: str | None = None
    attempts: int = 0
    error: str | None = None
    revision: str | None = None
    commit: str | None = None
    warnings: list[str] = field(default_factory=list)

    _FIELDS = ItemFields(
        ("id", "id"), ("space_id", "spaceId"), ("kind", "kind"), ("status", "status"), ("url", "url"),
        ("ref", "ref"), ("project_directory", "projectDirectory"), ("standalone", "standalone"),
        ("git_info", "gitInfo"), ("created_by", "createdBy"), ("created_at", "createdAt"),
        ("updated_at", "updatedAt"), ("attempts", "attempts"), ("expires_at", TTL_ATTRIBUTE),
        ("commit_message", "commitMessage"), ("claimed_at", "claimedAt"), ("error", "error"),
        ("revision", "revision"), ("commit", "commit"), ("warnings", "warnings"),
        omit_empty=("warnings",),
    )

    def to_item(self) -> Item:
        return {**git_keys.git_run(self.space_id, self.id), "type": "git-run",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> GitRun:
        return cls(**cls._FIELDS.values(item))


def put_run(run: GitRun) -> None:
    dynamodb_table().put_item(Item=run.to_item(), ConditionExpression="attribute_not_exists(PK)")


def get_run(space_id: str, run_id: str) -> GitRun | None:
    item = table.get(git_keys.git_run(space_id, run_id))
    return GitRun.from_item(item) if item else None


def runs_page(space_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """One Query: the space's runs, newest first."""
    return table.Query(partition=git_keys.space_partition(space_id), prefix=git_keys.GIT_RUN_PREFIX,
                       forward=False, limit=limit, start_key=start_key).run()


def runs_count(space_id: str) -> int:
    """How many runs `runs_page` lists over all its pages: one `Select=COUNT` Query."""
    return table.Query(partition=git_keys.space_partition(space_id), prefix=git_keys.GIT_RUN_PREFIX).count()


def _update(space_id: str, run_id: str, expression: str, condition: str, values: dict[str, Any]) -> bool:
    try:
        dynamodb_table().update_item(Key=git_keys.git_run(space_id, run_id), UpdateExpression=expression,
                                     ConditionExpression=condition, ExpressionAttributeValues=values,
                                     ExpressionAttributeNames={"#status": "status", "#error": "error"}
                                     if "#error" in expression else {"#status": "status"})
    except ClientError as error:
        if error.response["Error"]["Code"] == "ConditionalCheckFailedException":
            return False
        raise
    return True


def claim(space_id: str, run_id: str, now: str, stale_before: str) -> bool:
    """pending → running (or take over a run whose worker stopped before `stale_before`); False when
    the run is unknown, finished, or running elsewhere."""
    return _update(space_id, run_id,
                   "SET #status = :running, claimedAt = :now, updatedAt = :now, attempts = attempts + :one",
                   "attribute_exists(PK) AND "
                   "(#status = :pending OR (#status = :running AND claimedAt < :stale))",
                   {":running": "running", ":pending": "pending", ":now": now, ":stale": stale_before,
                    ":one": 1})


def release(space_id: str, run_id: str, claimed_at: str, now: str, error: str) -> bool:
    """running → pending, for another attempt (the message goes back to the queue); `lastError` says
    why the attempt failed."""
    return _update(space_id, run_id, "SET #status = :pending, updatedAt = :now, lastError = :error",
                   "#status = :running AND claimedAt = :claimed",
                   {":pending": "pending", ":running": "running", ":claimed": claimed_at, ":now": now,
                    ":error": error})


RUN_CLAIM = "run-claim"  # the name of `finish_op` in a transaction: it fails once the claim is lost


def finish_op(space_id: str, run_id: str, claimed_at: str, now: str, *, status: str,
              error: str | None = None, revision: str | None = None, commit: str | None = None,
              warnings: list[str] | None = None) -> table.Op:
    """running → succeeded | failed, for a transaction; only the claim that is still current may finish
    the run (a worker that lost its claim to a takeover cannot overwrite the outcome). `warnings` are
    kept bounded: the first MAX_WARNINGS, each cut at MAX_WARNING_CHARS, and a last line saying how many
    more there were."""
    assign = ["#status = :status", "updatedAt = :now"]
    values: dict[str, Any] = {":status": status, ":now": now, ":running": "running", ":claimed": claimed_at}
    names = {"#status": "status"}
    # `commit` is a reserved word in expressions, hence names for all three.
    if warnings:
        kept = [w if len(w) <= MAX_WARNING_CHARS else w[:MAX_WARNING_CHARS - 1] + "…"
                for w in warnings[:MAX_WARNINGS]]
        if len(warnings) > MAX_WARNINGS:
            kept.append(f"… and {len(warnings) - MAX_WARNINGS} more")
        assign.append("warnings = :warnings")
        values[":warnings"] = kept
    for name, value in (("error", error), ("revision", revision), ("commit", commit)):
        if value is not None:
            assign.append(f"#{name} = :{name}")
            values[f":{name}"] = value
            names[f"#{name}"] = name
    return table.update_op(git_keys.git_run(space_id, run_id), "SET " + ", ".join(assign), values,
                           "#status = :running AND claimedAt = :claimed", names, name=RUN_CLAIM)



def abandon(space_id: str, run_id: str, now: str, error: str) -> bool:
    """pending → failed: the run will never be performed (its message could not be queued)."""
    return _update(space_id, run_id, "SET #status = :failed, updatedAt = :now, #error = :error",
                   "#status = :pending",
                   {":failed": "failed", ":pending": "pending", ":now": now, ":error": error})
