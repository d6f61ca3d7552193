"""The adaptive-content visitor schema of a site, and the condition templates made from it
(docs/sites.md).

The schema is a JSON Schema (draft-07) of the claims a visitor brings: signed claims at the top level,
unsigned ones under `unsigned`. PUT checks it against draft-07's meta-schema and against the shape the
official spec gives it (bindery.domain.sites.schemas); the 400 names the offending path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.sites.records import open_site
from bindery.domain.sites.schemas import problem
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, NotFound
from bindery.store import Transaction, TransactionConflict
from bindery.store import site_settings as settings_store
from bindery.store.site_settings import AdaptiveSchema

NO_SCHEMA = "No visitor attributes schema for this site"


@dataclass(frozen=True)
class TemplateCondition:
    description: str
    condition: str


def get_schema(caller: Caller, org_id: str, site_id: str) -> AdaptiveSchema:
    open_site(caller, org_id, site_id)
    found = settings_store.get_adaptive_schema(site_id)
    if found is None:
        raise NotFound(NO_SCHEMA)
    return found


def put_schema(caller: Caller, org_id: str, site_id: str, json_schema: dict[str, Any]) -> AdaptiveSchema:
    context = open_site(caller, org_id, site_id)
    context.require_admin("change sites")
    _check(json_schema)
    schema = AdaptiveSchema(json_schema, now_iso())
    try:
        Transaction(settings_store.site_check_op(site_id),
                    settings_store.put_adaptive_schema_op(site_id, schema)).commit()
    except TransactionConflict:
        raise NotFound("No matching site") from None
    return schema


def _check(json_schema: dict[str, Any]) -> None:
    # jsonschema is imported here: only this request pays for it
    from jsonschema import Draft7Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft7Validator.check_schema(json_schema)
    except SchemaError as error:
        path = ".".join(["jsonSchema", *(str(part) for part in error.absolute_path)])
        raise BadRequest(f"{path}: not a draft-07 JSON Schema ({error.message[:200]})") from None
    wrong = problem("site_adaptive_schema", json_schema, "jsonSchema")
    if wrong:
        raise BadRequest(wrong)


def template_conditions(caller: Caller, org_id: str, site_id: str) -> list[TemplateCondition]:
    """One condition per claim, signed then unsigned (none when the site has no schema)."""
    open_site(caller, org_id, site_id)
    found = settings_store.get_adaptive_schema(site_id)
    if found is None:
        return []
    properties = dict(found.json_schema.get("properties") or {})
    unsigned = properties.pop("unsigned", None) or {}
    made = _conditions(properties, "visitor.claims")
    return made + _conditions(unsigned.get("properties") or {}, "visitor.claims.unsigned")


def _conditions(properties: dict[str, Any], prefix: str) -> list[TemplateCondition]:
    made: list[TemplateCondition] = []
    for name, claim in properties.items():
        path = f"{prefix}.{name}"
        description = str(claim.get("description") or name)
        kind = claim.get("type")
        if kind == "object":
            made += _conditions(claim.get("properties") or {}, path)
        elif kind == "boolean":
            made.append(TemplateCondition(description, f"{path} == true"))
        elif kind == "number":
            made.append(TemplateCondition(description, f"{path} > 0"))
        elif kind == "string":
            made.append(TemplateCondition(description, f'{path} == ""'))
        elif kind == "array":
            made.append(TemplateCondition(description, f"{path}.length > 0"))
    return made
