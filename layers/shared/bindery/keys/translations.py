"""Keys of translations and glossary entries (docs/translations.md, docs/data-model.md).

Both live in their organization's partition, under time-ordered ids (a listing is one Query, in creation
order). A run's page fingerprints are one S3 object per run.
"""

from __future__ import annotations

from bindery.keys import Key, org_partition

TRANSLATION_PREFIX = "TRANSLATION#"
GLOSSARY_PREFIX = "GLOSSARY#"


def translation(org_id: str, translation_id: str) -> Key:
    return {"PK": org_partition(org_id), "SK": f"{TRANSLATION_PREFIX}{translation_id}"}


def glossary_entry(org_id: str, entry_id: str) -> Key:
    return {"PK": org_partition(org_id), "SK": f"{GLOSSARY_PREFIX}{entry_id}"}


def objects_prefix(translation_id: str) -> str:
    return f"translations/{translation_id}/"


def run_state_object(translation_id: str, job: str) -> str:
    return f"{objects_prefix(translation_id)}runs/{job}.json"
