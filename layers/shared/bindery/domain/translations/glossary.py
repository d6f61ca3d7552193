"""The organization's translation glossary (ORG/translations-glossary, docs/translations.md): terms and
their translation per language, which runs use (a prompt for LLM backends, fixed placeholders otherwise).

Reading takes the read role in the organization, changing it the create role (as translations do). A
batch of operations is validated whole (an update or delete of an unknown entry is a 400 naming it) and
written in one transaction, so it applies entirely or not at all.
"""

from __future__ import annotations

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import require_org_role
from bindery.domain.translations.records import EDIT, VIEW
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.requests.translations import GlossaryOperation
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import glossary as glossary_store
from bindery.store.glossary import GlossaryEntry

NO_ENTRY = "No matching glossary entry"


def list_entries(caller: Caller, org_id: str, *, limit: int, page: str | None) -> Listing[GlossaryEntry]:
    access = require_org_role(caller, org_id, VIEW, "read the glossary")
    scope = f"glossary:{org_id}"
    found = glossary_store.entries_page(org_id, limit, open_page(scope, page).start)
    return Listing([GlossaryEntry.from_item(item) for item in found.items], next_page(scope, found.last_key),
                   access.org.glossary_count)


def get_entry(caller: Caller, org_id: str, entry_id: str) -> GlossaryEntry:
    require_org_role(caller, org_id, VIEW, "read the glossary")
    entry = glossary_store.get_entry(org_id, entry_id)
    if entry is None:
        raise NotFound(NO_ENTRY)
    return entry


def _terms(operation: GlossaryOperation) -> dict[str, str]:
    return {str(language): term for language, term in (operation.translations or {}).items()}


def apply_operations(caller: Caller, org_id: str, operations: list[GlossaryOperation]) -> None:
    require_org_role(caller, org_id, EDIT, "change the glossary")
    if len(operations) > glossary_store.MAX_OPERATIONS:
        raise BadRequest(f"operations: at most {glossary_store.MAX_OPERATIONS} per request")
    named = [op.id for op in operations if op.type != "insert" and op.id]
    if len(set(named)) != len(named):
        raise BadRequest("operations: an entry may be named by one operation only")
    existing = glossary_store.get_entries(org_id, named)
    now = clock.now_iso()
    ops: list[Op] = []
    delta = 0
    for index, operation in enumerate(operations):
        name = f"operations.{index}"
        if operation.type == "insert":
            entry = GlossaryEntry(id=new_id(), org_id=org_id, created_at=now, updated_at=now,
                                  translations=_terms(operation))
            ops.append(glossary_store.insert_op(entry, name))
            delta += 1
            continue
        found = existing.get(operation.id or "")
        if found is None:
            raise BadRequest(f"{name}.id: no matching glossary entry")
        if operation.type == "update":
            found.translations, found.updated_at = _terms(operation), now
            ops.append(glossary_store.update_op(found, name))
        else:
            ops.append(glossary_store.delete_op(org_id, found.id, name))
            delta -= 1
    if not ops:
        return
    if delta:
        ops.append(glossary_store.count_op(org_id, delta))
    try:
        Transaction(ops).commit()
    except TransactionConflict:
        raise Conflict("The glossary changed while this request ran; nothing was changed") from None
