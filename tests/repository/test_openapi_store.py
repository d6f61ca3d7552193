"""OpenAPI specifications and versions (store/openapi_specs.py) on every engine (moto, DynamoDB Local):
the conditional writes that make slugs unique and the processing worker idempotent."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction, table
from bindery.store import openapi_specs as spec_store
from bindery.store.openapi_specs import Outcome, Spec, Version
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"
LATER = "2026-01-01T00:10:00.000Z"


def _spec(slug: str = "pets", spec_id: str = "sp1", job: str = "j1") -> Spec:
    ensure_org("o1")
    spec = Spec(id=spec_id, org_id="o1", slug=slug, created_at=AT, updated_at=AT, created_by="u1", job=job,
                source_url="https://specs.example.com/pets.yaml")
    Transaction(spec_store.create_ops(spec)).commit()
    return spec


def spec_count() -> int:
    return int(table.get(keys.org("o1"))["openapiSpecCount"])


def _version(spec: Spec, version_id: str, digest: str) -> Version:
    return Version(id=version_id, spec_id=spec.id, created_at=LATER, digest=digest, root="pets.yaml",
                   objects=spec_store.version_prefix(spec.id, version_id))


def test_a_slug_is_taken_once_and_counted_and_the_id_finds_it_too() -> None:
    spec = _spec()
    with pytest.raises(TransactionConflict) as refused:
        Transaction(spec_store.create_ops(replace(spec, id="sp2"))).commit()
    assert refused.value.failed("spec")
    assert spec_count() == 1
    assert spec_store.get_spec("o1", "pets") == spec
    assert spec_store.get_spec_by_ref("o1", "sp1") == spec
    assert spec_store.get_spec_by_ref("o1", "pets") == spec
    assert spec_store.get_spec_by_ref("o1", "nothing") is None


def test_one_claim_per_job_and_a_stale_one_is_taken_over() -> None:
    spec = _spec()
    assert spec_store.claim(spec, AT, "2025-12-31T23:50:00.000Z") is True
    assert spec_store.claim(spec, AT, "2025-12-31T23:50:00.000Z") is False  # a duplicate delivery
    # a worker that claimed it at AT and died: taken over once the claim is older than the stale mark
    assert spec_store.claim(spec, LATER, "2026-01-01T00:05:00.000Z") is True
    assert spec_store.claim(replace(spec, job="other"), LATER, LATER) is False


def test_finishing_with_a_version_moves_the_latest_and_the_count() -> None:
    spec = _spec()
    spec_store.claim(spec, AT, AT)
    version = _version(spec, "v1", "d1")
    assert spec_store.finish(spec, Outcome(LATER, version=version)) is True
    stored = spec_store.get_spec("o1", "pets")
    assert (stored.processing_state, stored.last_version, stored.last_digest, stored.last_root,
            stored.version_count, stored.last_processed_at) == ("complete", "v1", "d1", "pets.yaml", 1, LATER)
    assert spec_store.get_version(spec.id, "v1") == version
    assert spec_store.finish(spec, Outcome(LATER, version=_version(spec, "v2", "d2"))) is False  # not claimed
    assert spec_store.get_version(spec.id, "v2") is None


def test_errors_replace_nothing_but_the_error_fields() -> None:
    spec = _spec()
    spec_store.claim(spec, AT, AT)
    spec_store.finish(spec, Outcome(LATER, version=_version(spec, "v1", "d1")))
    again = replace(spec_store.get_spec("o1", "pets"), job="j2")
    Transaction(spec_store.new_source_op(again, "j1")).commit()
    spec_store.claim(again, LATER, LATER)
    errors = [{"message": "bad", "code": "VALIDATION_ERROR"}]
    assert spec_store.finish(again, Outcome(LATER, error_code="PARSE_ERROR", errors=errors)) is True
    stored = spec_store.get_spec("o1", "pets")
    assert (stored.last_version, stored.last_error_code, stored.last_errors, stored.version_count) == (
        "v1", "PARSE_ERROR", errors, 1)


def test_a_new_source_supersedes_the_running_job() -> None:
    spec = _spec()
    assert spec_store.claim(spec, AT, AT)
    newer = replace(spec, job="j2", source_url=None, source_digest="abc", updated_at=LATER)
    Transaction(spec_store.new_source_op(newer, "j1")).commit()
    with pytest.raises(TransactionConflict):  # another PUT that read the old job loses
        Transaction(spec_store.new_source_op(replace(newer, job="j3"), "j1")).commit()
    assert spec_store.finish(spec, Outcome(LATER, version=_version(spec, "v1", "d1"))) is False
    stored = spec_store.get_spec("o1", "pets")
    assert (stored.job, stored.processing_state, stored.claimed_at) == ("j2", "pending", None)
    assert (stored.source_url, stored.source_digest) == (None, "abc")
    assert spec_store.release(spec) is False


def test_delete_takes_the_alias_the_count_and_the_versions() -> None:
    spec = _spec()
    spec_store.claim(spec, AT, AT)
    spec_store.finish(spec, Outcome(LATER, version=_version(spec, "v1", "d1")))
    Transaction(spec_store.delete_ops(spec)).commit()
    spec_store.delete_versions(spec.id)
    assert spec_store.get_spec_by_ref("o1", "sp1") is None
    assert spec_count() == 0
    assert spec_store.versions_page(spec.id, 10, None).items == []
