"""Organizations, their email-domain index and their agent instructions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.members import Member
from bindery.store.table import Item
from bindery.store.tree import named_update_op
from bindery.store.users import org_count_op


@dataclass
class Organization:
    id: str
    title: str
    created_at: str
    email_domains: list[str] = field(default_factory=list)
    hostname: str | None = None
    type: str = "business"
    use_case: str | None = None
    community_type: str | None = None
    default_role: str | None = "read"
    default_content: dict[str, Any] | None = None
    sso: bool = False
    ai: bool = True
    invite_links: bool = True
    plan: str = "free_2024"
    merge_rules: dict[str, Any] = field(default_factory=lambda: {"type": "inherit"})
    logo: str | None = None
    # Counters, kept in the same transactions as the writes they count.
    member_count: int = 0
    admin_count: int = 0
    team_count: int = 0
    invite_count: int = 0
    space_count: int = 0  # live spaces (a deleted one is not counted)
    collection_count: int = 0
    openapi_spec_count: int = 0
    translation_count: int = 0
    glossary_count: int = 0

    # defaultRole null means "guest" and must survive the round trip; other Nones are absent.
    _FIELDS = ItemFields(
        ("id", "id"), ("title", "title"), ("created_at", "createdAt"), ("email_domains", "emailDomains"),
        ("hostname", "hostname"), ("type", "orgType"), ("use_case", "useCase"),
        ("community_type", "communityType"), ("default_role", "defaultRole"),
        ("default_content", "defaultContent"), ("sso", "sso"), ("ai", "ai"),
        ("invite_links", "inviteLinks"), ("plan", "plan"), ("merge_rules", "mergeRules"), ("logo", "logo"),
        ("member_count", "memberCount"), ("admin_count", "adminCount"),
        ("team_count", "teamCount"), ("invite_count", "inviteCount"),
        ("space_count", "spaceCount"), ("collection_count", "collectionCount"),
        ("openapi_spec_count", "openapiSpecCount"), ("translation_count", "translationCount"),
        ("glossary_count", "glossaryEntryCount"),
        keep_none=("default_role",),
    )

    # Not settings: the id never changes, and the counters move in other transactions, which a
    # whole-item write would undo.
    _NOT_SETTINGS = ("id", "member_count", "admin_count", "team_count", "invite_count", "space_count",
                     "collection_count", "openapi_spec_count", "translation_count", "glossary_count")

    def settings_update(self) -> tuple[Item, tuple[str, ...]]:
        """What an update of every field but the id and the counters sets and removes (an absent one)."""
        return self._FIELDS.update(self, leave_out=self._NOT_SETTINGS)

    def to_item(self) -> Item:
        return {**keys.org(self.id), "type": "organization", **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Organization:
        return cls(**cls._FIELDS.values(item))


def org_key(org_id: str) -> keys.Key:
    """An organization's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.org(org_id)


def site_exists(org_id: str, site_id: str) -> bool:
    return table.get(keys.site(org_id, site_id)) is not None


def get_org(org_id: str) -> Organization | None:
    item = table.get(keys.org(org_id))
    return Organization.from_item(item) if item else None


def get_org_and_member(org_id: str, user_id: str) -> tuple[Organization | None, Member | None]:
    """Both items an organization-scoped request starts with, in one BatchGetItem."""
    org: Organization | None = None
    member: Member | None = None
    for item in table.batch_get([keys.org(org_id), keys.member(org_id, user_id)]):
        if item["SK"] == "ORG":
            org = Organization.from_item(item)
        else:
            member = Member.from_item(item)
    return org, member


def get_orgs(org_ids: list[str]) -> dict[str, Organization]:
    found: dict[str, Organization] = {}
    for start in range(0, len(org_ids), 100):
        for item in table.batch_get([keys.org(oid) for oid in org_ids[start:start + 100]]):
            found[item["id"]] = Organization.from_item(item)
    return found


def create_org(org: Organization, founder: Member) -> None:
    """The organization and its first admin, together."""
    org.member_count = 1
    org.admin_count = 1 if founder.role == "admin" else 0
    table.transact([
        table.put_op(org.to_item(), "attribute_not_exists(PK)"),
        table.put_op(founder.to_item(), "attribute_not_exists(PK)"),
        org_count_op(founder.user_id, 1),
    ])


def update_org(org: Organization, previous_domains: list[str], previous_hostname: str | None = None) -> None:
    """Write the organization's settings (never its counters) and bring the email-domain index and the
    hostname guard in line with them, atomically (a hostname another organization holds fails the
    transaction on the operation named `hostname`)."""
    sets, removes = org.settings_update()
    ops = [table.named("org-settings", named_update_op(keys.org(org.id), sets, "attribute_exists(PK)", {},
                                                       removes))]
    if (org.hostname or None) != (previous_hostname or None):
        if previous_hostname:
            ops.append(table.delete_op(keys.org_hostname(previous_hostname), name="release-hostname"))
        if org.hostname:
            ops.append(table.put_op({**keys.org_hostname(org.hostname), "orgId": org.id},
                                    "attribute_not_exists(PK) OR orgId = :me", name="hostname",
                                    ExpressionAttributeValues={":me": org.id}))
    for domain in set(previous_domains) - set(org.email_domains):
        ops.append(table.delete_op(keys.email_domain(domain, org.id)))
    for domain in set(org.email_domains) - set(previous_domains):
        ops.append(table.put_op({**keys.email_domain(domain, org.id), "type": "email-domain",
                                 "orgId": org.id, "domain": domain.lower()}))
    table.transact(ops)


def org_id_for_hostname(hostname: str) -> str | None:
    """The organization holding the hostname (one GetItem of its guard)."""
    item = table.get(keys.org_hostname(hostname), consistent=False)
    return str(item["orgId"]) if item else None


def org_ids_for_email_domain(domain: str, limit: int = 100) -> list[str]:
    page = table.Query(partition=keys.email_domain_partition(domain), limit=limit).run()
    return [item["orgId"] for item in page.items]


@dataclass(frozen=True)
class AgentInstructions:
    """The organization's agent instructions as stored, or the empty document when never set."""

    org_id: str
    instructions: dict[str, Any]
    updated_at: str
    updated_by: str


def get_agent_instructions(org_id: str) -> AgentInstructions | None:
    item = table.get(keys.agent_instructions(org_id))
    if item is None:
        return None
    return AgentInstructions(org_id, item["instructions"], item["updatedAt"], item["updatedBy"])


def put_agent_instructions(org_id: str, instructions: dict[str, Any], updated_by: str,
                           updated_at: str) -> None:
    item = {**keys.agent_instructions(org_id), "type": "agent-instructions", "orgId": org_id,
            "instructions": instructions, "updatedBy": updated_by, "updatedAt": updated_at}
    table.transact([table.put_op(item), table.condition_op(keys.org(org_id), "attribute_exists(PK)")])


def bootstrapped() -> bool:
    """Whether the table was bootstrapped: its marker is written once, with the first admin."""
    return table.get(keys.bootstrap_marker()) is not None


def mark_bootstrapped(user_id: str, org_id: str, at: str) -> None:
    """Writes the bootstrap marker (a TransactionConflict when another bootstrap wrote it first)."""
    marker = {**keys.bootstrap_marker(), "type": "bootstrap", "userId": user_id, "orgId": org_id,
              "createdAt": at}
    table.transact([table.put_op(marker, "attribute_not_exists(PK)")])
