"""A translation run, the worker's side (docs/translations.md, "Runs").

One message per job (`TranslationRunMessage`). The translation is claimed for the job first (pending →
running, a conditional write): a message for a job the translation no longer has (deleted, or a newer run
queued), or that another delivery holds or finished, claims nothing and is dropped. The run
(bindery.domain.translations.result) then ends the job in one conditional write: `completed` with the
result, the stats and no `lastRunError` — or, when it failed in a way another delivery would not mend (no
backend, a refused key, a quota, a backend down after its retries, lost markup), `completed` with
`lastRunError` and the previous result untouched. If a run was asked for meanwhile (`rerun`), the job
ends `pending` under a new job instead, and that run is queued.

An unexpected failure (a bug, a service error) puts the translation back to pending and fails the message,
so that SQS delivers it again; on the last delivery (the queue's maxReceiveCount) the translation records
INTERNAL_ERROR and the message goes on to the dead-letter queue.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from aws_lambda_powertools import Logger

from bindery.domain.translations.result import RunResult, Superseded, run
from bindery.engines.translation.errors import TranslationFailed
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.ids import new_id
from bindery.platform.messages import TranslationRunMessage
from bindery.store import Transaction
from bindery.store import translations as translation_store
from bindery.store.translations import Ending, Translation

logger = Logger(service="translations")
MAX_ATTEMPTS = 3  # template.yaml: TranslationRunQueue's maxReceiveCount
# A worker runs at most 900 s (template.yaml): a job claimed longer ago than this lost its worker.
STALE_AFTER = timedelta(seconds=1800)


def _error(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message, "at": clock.now_iso()}


def _stats(translation: Translation, outcome: RunResult | None, started: datetime) -> dict[str, int]:
    stats = dict(translation.stats)
    if outcome is None:
        return stats
    duration = max(0, round((clock.now() - started).total_seconds()))
    stats.update(
        runs=stats["runs"] + 1,
        totalWords=stats["totalWords"] + outcome.words,
        totalPages=len(outcome.state["translated"]),
        totalDuration=stats["totalDuration"] + duration,
        latestRunDuration=duration,
        latestPages=len(outcome.pages),
        latestWords=outcome.words,
    )
    return stats


def end_run(
    translation: Translation, outcome: RunResult | None, error: dict[str, str] | None, started: datetime
) -> bool:
    """End the job (and queue the next run if one was asked for); False when the job is no longer this
    run's (nothing is written then)."""
    state_object = None
    if outcome is not None:
        assert translation.job is not None
        state_object = translation_store.put_state(translation.id, translation.job, outcome.state)
    for _ in range(3):
        current = translation_store.get_translation(translation.org_id, translation.id)
        if current is None or current.job != translation.job or current.status != "running":
            break
        next_job = new_id() if current.rerun else None
        ending = Ending(
            at=clock.now_iso(),
            next_job=next_job,
            stats=_stats(current, outcome, started),
            error=error,
            state_object=state_object,
            result_revision=outcome.revision if outcome else None,
            source_revision=outcome.source_revision if outcome else None,
        )
        if translation_store.end(translation, ending, rerun_seen=bool(current.rerun)):
            if outcome is not None and translation.state_object and translation.state_object != state_object:
                translation_store.delete_object(translation.state_object)
            if next_job:
                queue_url = settings().translation_queue_url
                try:
                    queues.send(
                        queue_url,
                        TranslationRunMessage(
                            organizationId=translation.org_id, translationId=translation.id, job=next_job
                        ),
                    )
                except Exception:
                    # The run asked for meanwhile has no message: left pending, it would never run and
                    # would take every later run request in. Put it back as completed (that run is
                    # dropped, visibly), so that the next request queues one.
                    Transaction(translation_store.unqueue_op(translation, next_job, translation.job)).commit()
                    raise
            return True
    if state_object:
        translation_store.delete_object(state_object)
    return False


def process(message: TranslationRunMessage, *, delivery: int) -> str | None:
    """Run the job a message names (its `delivery`-th delivery); the status it left, or None when there
    was nothing to do. Raises (the message fails) on an unexpected error."""
    translation = translation_store.get_translation(message.organizationId, message.translationId)
    if translation is None or translation.job != message.job:
        logger.info("translation run superseded", extra={"translationId": message.translationId})
        return None
    started = clock.now()
    if not translation_store.claim(translation, clock.iso(started), clock.iso(started - STALE_AFTER)):
        logger.info("translation run already claimed or done", extra={"translationId": translation.id})
        return None
    try:
        outcome = run(translation)
    except Superseded:
        return None
    except TranslationFailed as failed:  # recorded on the translation, not retried
        logger.warning(
            "translation run failed",
            extra={"translationId": translation.id, "code": failed.code, "reason": failed.message},
        )
        end_run(translation, None, _error(failed.code, failed.message), started)
        return "completed"
    except Exception:
        if delivery >= MAX_ATTEMPTS:
            end_run(
                translation,
                None,
                _error(
                    "INTERNAL_ERROR",
                    "The run failed because of an internal error; run the translation again.",
                ),
                started,
            )
        else:
            translation_store.release(translation)
        raise
    return "completed" if end_run(translation, outcome, None, started) else None
