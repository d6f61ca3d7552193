"""Every DynamoDB key Bindery writes is built in this package, and only here (see docs/data-model.md):
identity, organizations, spaces and content below; each later area in a module of its own
(`bindery.keys.change_requests`, `bindery.keys.comments`, `bindery.keys.git_sync`, `bindery.keys.search`).

Attributes: PK/SK on the table; GSI1PK/GSI1SK, GSI2PK/GSI2SK and GSI3PK/GSI3SK on three overloaded
global secondary indexes; `expiresAt` (epoch seconds) is the table's TTL attribute.
"""

from __future__ import annotations

Key = dict[str, str]


def _key(pk: str, sk: str) -> Key:
    return {"PK": pk, "SK": sk}


# --- users and tokens -------------------------------------------------------------------------
def user(user_id: str) -> Key:
    return _key(f"USER#{user_id}", "USER")


def user_email(email: str) -> Key:
    """Uniqueness guard: one item per lower-cased email, written in the same transaction as the user."""
    return _key(f"EMAIL#{email.lower()}", "EMAIL")


def token(token_hash: str) -> Key:
    return _key(f"TOKEN#{token_hash}", "TOKEN")


# --- organizations ----------------------------------------------------------------------------
def org(org_id: str) -> Key:
    return _key(f"ORG#{org_id}", "ORG")


def org_partition(org_id: str) -> str:
    return f"ORG#{org_id}"


def org_hostname(hostname: str) -> Key:
    """Uniqueness guard and lookup of an organization's hostname (its published sites' addresses)."""
    return _key(f"ORGHOSTNAME#{hostname.lower()}", "ORGHOSTNAME")


def email_domain(domain: str, org_id: str) -> Key:
    return _key(f"EMAILDOMAIN#{domain.lower()}", f"ORG#{org_id}")


def email_domain_partition(domain: str) -> str:
    return f"EMAILDOMAIN#{domain.lower()}"


def agent_instructions(org_id: str) -> Key:
    return _key(f"ORG#{org_id}", "AGENT_INSTRUCTIONS")


# --- members ----------------------------------------------------------------------------------
MEMBER_PREFIX = "MEMBER#"


def member(org_id: str, user_id: str) -> Key:
    return _key(f"ORG#{org_id}", f"{MEMBER_PREFIX}{user_id}")


def user_orgs_partition(user_id: str) -> str:
    """GSI1: the organizations a user belongs to, ordered by organization id."""
    return f"USER#{user_id}#ORGS"


def member_gsi(org_id: str, user_id: str, joined_at: str, last_seen_at: str | None) -> dict[str, str]:
    """Index attributes of a member item: by user (GSI1), by join date (GSI2), by activity (GSI3, sparse)."""
    attrs = {
        "GSI1PK": user_orgs_partition(user_id),
        "GSI1SK": f"ORG#{org_id}",
        "GSI2PK": members_by_joined_partition(org_id),
        "GSI2SK": f"{joined_at}#{user_id}",
    }
    if last_seen_at:
        attrs["GSI3PK"] = members_by_activity_partition(org_id)
        attrs["GSI3SK"] = f"{last_seen_at}#{user_id}"
    return attrs


def members_by_joined_partition(org_id: str) -> str:
    return f"ORG#{org_id}#MEMBERS"


def members_by_activity_partition(org_id: str) -> str:
    return f"ORG#{org_id}#ACTIVE"


# --- teams ------------------------------------------------------------------------------------
TEAM_PREFIX = "TEAM#"


def team(org_id: str, team_id: str) -> Key:
    return _key(f"ORG#{org_id}", f"{TEAM_PREFIX}{team_id}")


def team_member_prefix(team_id: str) -> str:
    return f"TEAMMEMBER#{team_id}#"


def team_member(org_id: str, team_id: str, user_id: str) -> Key:
    return _key(f"ORG#{org_id}", f"{team_member_prefix(team_id)}{user_id}")


def member_teams_partition(org_id: str, user_id: str) -> str:
    """GSI1: the teams of one member of one organization, ordered by team id."""
    return f"ORG#{org_id}#USER#{user_id}#TEAMS"


def team_member_gsi(org_id: str, team_id: str, user_id: str) -> dict[str, str]:
    return {"GSI1PK": member_teams_partition(org_id, user_id), "GSI1SK": f"TEAM#{team_id}"}


# --- invites ----------------------------------------------------------------------------------
LINK_INVITE_PREFIX = "LINKINVITE#"


def link_invite(org_id: str, invite_id: str) -> Key:
    return _key(f"ORG#{org_id}", f"{LINK_INVITE_PREFIX}{invite_id}")


# --- sites (organization default content points at one) ----------------------------------------
def site(org_id: str, site_id: str) -> Key:
    return _key(f"ORG#{org_id}", f"SITE#{site_id}")


# --- installation ------------------------------------------------------------------------------
def bootstrap_marker() -> Key:
    """Written once, with the first admin, user and token: its presence means "already bootstrapped"."""
    return _key("BINDERY", "BOOTSTRAP")


# --- spaces and collections ---------------------------------------------------------------------
# /spaces/{spaceId} and /collections/{collectionId} name no organization, so each space and collection
# is its own partition; its item carries `orgId`. Grants also live on the item (a map) for one-read
# access checks, and as items of their own for the per-user listings.
def space(space_id: str) -> Key:
    return _key(f"SPACE#{space_id}", "SPACE")


def space_id_of(key: Key) -> str | None:
    """The space a key names when it is a space item's key (a stream record's), else None."""
    pk, sk = key.get("PK", ""), key.get("SK")
    return pk.removeprefix("SPACE#") if sk == "SPACE" and pk.startswith("SPACE#") else None


def collection(collection_id: str) -> Key:
    return _key(f"COLLECTION#{collection_id}", "COLLECTION")


def content(kind: str, content_id: str) -> Key:
    """`kind` is "space" or "collection"."""
    return space(content_id) if kind == "space" else collection(content_id)


def org_spaces_partition(org_id: str) -> str:
    """GSI1: every live space of an organization, by id (creation order)."""
    return f"ORG#{org_id}#SPACES"


def org_collections_partition(org_id: str) -> str:
    """GSI1: every collection of an organization, by id (creation order)."""
    return f"ORG#{org_id}#COLLECTIONS"


def children_partition(org_id: str, parent_id: str | None) -> str:
    """GSI2: the live spaces and collections directly under a collection (or the organization's top
    level), in sibling order."""
    return f"ORG#{org_id}#IN#{parent_id or 'ROOT'}"


def content_gsi(kind: str, org_id: str, content_id: str, parent_id: str | None,
                position: str) -> dict[str, str]:
    return {
        "GSI1PK": org_spaces_partition(org_id) if kind == "space" else org_collections_partition(org_id),
        "GSI1SK": content_id,
        "GSI2PK": children_partition(org_id, parent_id),
        "GSI2SK": f"{position}#{content_id}",
    }


def grant(kind: str, content_id: str, principal: str, principal_id: str) -> Key:
    """A user's or team's role on a space or collection (`principal` is "user" or "team")."""
    pk = f"{kind.upper()}#{content_id}"
    return _key(pk, f"{kind.upper()}#GRANT#{principal.upper()}#{principal_id}")


def grant_prefix(kind: str, principal: str) -> str:
    return f"{kind.upper()}#GRANT#{principal.upper()}#"


def user_grants_partition(org_id: str, user_id: str) -> str:
    """GSI1: the spaces and collections a member has a direct grant on."""
    return f"ORG#{org_id}#USER#{user_id}#GRANTS"


def revision(space_id: str, revision_id: str) -> Key:
    return _key(f"SPACE#{space_id}", f"REVISION#{revision_id}")


def blob(space_id: str, digest: str) -> Key:
    """A content-addressed value (a document, a page tree) of one space: `digest` is the SHA-256 of its
    canonical JSON, so equal content is one item per space (see docs/content-model.md)."""
    return _key(f"SPACE#{space_id}", f"BLOB#{digest}")


def team_grants_partition(org_id: str, team_id: str) -> str:
    """GSI1: the spaces and collections a team has a grant on (so that deleting the team finds them)."""
    return f"ORG#{org_id}#TEAM#{team_id}#GRANTS"
