"""Translations and the glossary (store/translations.py, store/glossary.py) on every engine (moto,
DynamoDB Local): the conditional writes that keep runs single and the worker idempotent, and the
counters that move with them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction, table
from bindery.store import glossary as glossary_store
from bindery.store import translations as translation_store
from bindery.store.glossary import GlossaryEntry
from bindery.store.translations import Ending, Translation
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"
LATER = "2026-01-01T00:10:00.000Z"
STALE = "2026-01-01T00:05:00.000Z"


def _translation(translation_id: str = "t1", job: str = "j1") -> Translation:
    ensure_org("o1")
    translation = Translation(id=translation_id, org_id="o1", created_at=AT, updated_at=AT, created_by="u1",
                              source_space="s1", source_language="en", language="fr", job=job)
    Transaction(translation_store.create_ops(translation)).commit()
    return translation


def _count(name: str) -> int:
    return int(table.get(keys.org("o1")).get(name, 0))


def _stored(translation: Translation) -> Translation:
    found = translation_store.get_translation(translation.org_id, translation.id)
    assert found is not None
    return found


def test_create_counts_and_delete_uncounts_once() -> None:
    translation = _translation()
    assert _count("translationCount") == 1
    assert _stored(translation).status == "pending"
    Transaction(translation_store.delete_ops(translation)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(translation_store.delete_ops(translation)).commit()
    assert _count("translationCount") == 0
    assert translation_store.get_translation("o1", "t1") is None


def test_a_job_is_claimed_by_one_delivery_unless_its_worker_went_stale() -> None:
    translation = _translation()
    assert translation_store.claim(translation, AT, "2025-12-31T00:00:00.000Z")
    assert not translation_store.claim(translation, LATER, "2025-12-31T00:00:00.000Z")  # held
    assert translation_store.claim(translation, LATER, STALE)  # claimed before STALE: taken over
    other = replace(translation, job="j0")
    assert not translation_store.claim(other, LATER, LATER)  # not its job


def test_ending_a_run_needs_its_job_and_the_rerun_flag_as_read() -> None:
    translation = _translation()
    assert translation_store.claim(translation, AT, AT)
    stats = {**translation.stats, "runs": 1}
    Transaction(translation_store.rerun_op(translation, "j1")).commit()
    done = Ending(at=LATER, next_job=None, stats=stats, result_revision="r1", source_revision="sr1")
    assert not translation_store.end(translation, done, rerun_seen=False)  # a run was asked for meanwhile
    assert not translation_store.end(replace(translation, job="j0"), done, rerun_seen=True)
    assert translation_store.end(translation, replace(done, next_job="j2"), rerun_seen=True)
    stored = _stored(translation)
    assert (stored.status, stored.job, stored.rerun, stored.result_revision) == ("pending", "j2", None, "r1")
    assert stored.stats["runs"] == 1
    assert not translation_store.end(translation, done, rerun_seen=True)  # j1 is over


def test_queueing_a_run_needs_a_completed_translation_as_it_was_read() -> None:
    translation = _translation()
    with pytest.raises(TransactionConflict):  # still pending: nothing is queued twice
        Transaction(translation_store.queue_op(translation, "j1", "j2", LATER)).commit()
    assert translation_store.claim(translation, AT, AT)
    failure = {"code": "BACKEND_AUTH", "message": "refused", "at": LATER}
    failed = Ending(at=LATER, next_job=None, error=failure)
    assert translation_store.end(translation, failed, rerun_seen=False)
    assert _stored(translation).last_error == failure
    Transaction(translation_store.queue_op(translation, "j1", "j2", LATER)).commit()
    with pytest.raises(TransactionConflict):  # another request queued it first
        Transaction(translation_store.queue_op(translation, "j1", "j3", LATER)).commit()
    assert (_stored(translation).status, _stored(translation).job) == ("pending", "j2")


def test_a_glossary_batch_is_all_or_nothing_and_counted() -> None:
    ensure_org("o1")
    first = GlossaryEntry(id="g1", org_id="o1", created_at=AT, updated_at=AT, translations={"en": "space"})
    Transaction([glossary_store.insert_op(first, "operations.0"), glossary_store.count_op("o1", 1)]).commit()
    second = GlossaryEntry(id="g2", org_id="o1", created_at=AT, updated_at=AT, translations={"en": "site"})
    with pytest.raises(TransactionConflict) as refused:
        Transaction([glossary_store.insert_op(second, "operations.0"),
                     glossary_store.delete_op("o1", "missing", "operations.1"),
                     glossary_store.count_op("o1", 0)]).commit()
    assert refused.value.failed("operations.1")
    assert glossary_store.get_entry("o1", "g2") is None
    assert _count("glossaryEntryCount") == 1
    assert [entry.id for entry in glossary_store.all_entries("o1")] == ["g1"]
