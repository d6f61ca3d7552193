"""SAML providers, the AuthnRequests Bindery sent, the assertions it accepted, and which account each
organization's SSO identity is bound to (keys in bindery.keys.saml; docs/sso.md).

A provider is one item of its own partition (GetItem by id) indexed by organization on GSI1. A login is
one transaction (`login_ops` + the user's, membership's and token's ops): the request it answers is
deleted on the condition that it still exists (single use) and the assertion's guard is put on the
condition that it does not (replay), so two deliveries of one response cannot both log in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery import keys
from bindery.keys import saml as saml_keys
from bindery.platform.clock import now_iso
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store.item_fields import ItemFields
from bindery.store.members import Member, add_member_ops
from bindery.store.table import TTL_ATTRIBUTE, Item
from bindery.store.teams import TeamLink
from bindery.store.users import User, user_put_ops

NEW = "attribute_not_exists(PK)"
EXISTS = "attribute_exists(PK)"


@dataclass
class Provider:
    id: str
    org_id: str
    label: str
    created_at: str
    updated_at: str
    entity_id: str | None = None
    sso_url: str | None = None
    certificate: str | None = None
    default_team: str | None = None
    default_role: str | None = None

    # defaultRole null means "guests" and is kept as null.
    _FIELDS = ItemFields(("id", "id"), ("org_id", "orgId"), ("label", "label"), ("created_at", "createdAt"),
                         ("updated_at", "updatedAt"), ("entity_id", "entityID"), ("sso_url", "ssoURL"),
                         ("certificate", "certificate"), ("default_team", "defaultTeam"),
                         ("default_role", "defaultRole"), keep_none=("default_role",))

    @property
    def active(self) -> bool:
        """Every field a login needs is set: the IdP's identity, where to send people, and its key."""
        return bool(self.entity_id and self.sso_url and self.certificate)

    def to_item(self) -> Item:
        return {**saml_keys.provider(self.id), **saml_keys.org_providers_gsi(self.org_id, self.id),
                "type": "saml-provider", "active": self.active, **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Provider:
        return cls(**cls._FIELDS.values(item))


@dataclass(frozen=True)
class AuthnRequest:
    id: str
    provider_id: str
    created_at: str
    expires_at: int  # epoch seconds
    # The signed-in user who started this login to link the IdP's identity to their account (None: a
    # login, not a link): the proof that the account's holder is the one at the IdP (docs/sso.md).
    link_user_id: str | None = None


# --- providers ------------------------------------------------------------------------------------
def get_provider(provider_id: str) -> Provider | None:
    item = table.get(saml_keys.provider(provider_id))
    return Provider.from_item(item) if item else None


def org_providers_page(org_id: str, limit: int, start_key: dict[str, Any] | None, *,
                       active_only: bool = False) -> table.QueryPage:
    """GSI1: one page of the organization's providers in creation order (only active ones if asked)."""
    return table.Query(partition=saml_keys.org_providers_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key, filter=Attr("active").eq(True) if active_only else None).run()


def org_providers_count(org_id: str) -> int:
    return table.Query(partition=saml_keys.org_providers_partition(org_id), index="GSI1").count()


def create_provider(provider: Provider) -> None:
    table.transact([table.put_op(provider.to_item(), NEW, name="provider")])


def replace_provider(provider: Provider, seen_updated_at: str) -> None:
    """Writes the provider's new state if nobody changed it since it was read (`updatedAt`)."""
    table.transact([table.put_op(provider.to_item(), "updatedAt = :seen", name="provider",
                                 ExpressionAttributeValues={":seen": seen_updated_at})])


def delete_provider(provider_id: str) -> None:
    table.transact([table.delete_op(saml_keys.provider(provider_id), name="provider")])


# --- the login protocol ---------------------------------------------------------------------------
def put_authn_request(request: AuthnRequest) -> None:
    item = {**saml_keys.authn_request(request.id), "type": "saml-request", "id": request.id,
            "providerId": request.provider_id, "createdAt": request.created_at,
            TTL_ATTRIBUTE: request.expires_at}
    if request.link_user_id is not None:
        item["linkUserId"] = request.link_user_id
    table.transact([table.put_op(item, NEW, name="authn-request")])


def get_authn_request(request_id: str) -> AuthnRequest | None:
    item = table.get(saml_keys.authn_request(request_id))
    if item is None:
        return None
    return AuthnRequest(id=item["id"], provider_id=item["providerId"], created_at=item["createdAt"],
                        expires_at=int(item[TTL_ATTRIBUTE]), link_user_id=item.get("linkUserId"))


# --- SSO identities: which account an organization's IdP identity signs in -------------------------
def bound_user_id(org_id: str, email: str) -> str | None:
    """The account the organization's identity `email` is bound to (None: not bound yet)."""
    item = table.get(saml_keys.sso_identity(org_id, email))
    return str(item["userId"]) if item else None


def _bind_op(login: Login) -> table.Op:
    """Binds the identity to the login's user: a new binding only if none exists, a replaced one (its
    account was deleted) only if it still names that account, so two first logins cannot both bind."""
    item = {**saml_keys.sso_identity(login.member.org_id, login.identity_email), "type": "sso-identity",
            "orgId": login.member.org_id, "email": login.identity_email.lower(), "userId": login.user.id,
            "samlProvider": login.provider.id, "createdAt": now_iso()}
    if login.replaces_binding is None:
        return table.put_op(item, NEW, name="sso-identity")
    return table.put_op(item, "userId = :stale", name="sso-identity",
                        ExpressionAttributeValues={":stale": login.replaces_binding})


def consume_request_op(request_id: str) -> table.Op:
    """Deletes the request a response answers; refused when another login already consumed it."""
    return table.delete_op(saml_keys.authn_request(request_id), EXISTS, name="authn-request")


def assertion_guard_op(provider_id: str, assertion_id: str, expires_at: int) -> table.Op:
    """Remembers an accepted assertion until it could no longer be accepted anyway (its NotOnOrAfter
    plus the clock skew); refused when it was accepted before."""
    item = {**saml_keys.assertion(provider_id, assertion_id), "type": "saml-assertion",
            TTL_ATTRIBUTE: expires_at}
    return table.put_op(item, NEW, name="assertion")


@dataclass
class Login:
    """Everything one SAML login writes, for `commit_login`: who (a user to create, or an existing one),
    their membership (new, or an existing one to mark `sso`), the default team to join, and the token."""

    provider: Provider
    assertion_id: str
    assertion_expires_at: int
    request_id: str | None  # the AuthnRequest answered; None for an IdP-initiated login
    user: User
    new_user: bool
    member: Member
    new_member: bool
    team_link: TeamLink | None  # a team the member is not in yet
    token_hash: str
    identity_email: str = ""  # the asserted email: the organization's identity the login signs in
    bind: bool = False  # write the identity's binding to `user` (first login, or a link)
    replaces_binding: str | None = None  # the deleted account a binding named, replaced by `user`


def in_team(org_id: str, team_id: str, user_id: str) -> bool:
    return table.get(keys.team_member(org_id, team_id, user_id)) is not None


def commit_login(login: Login) -> None:
    """One transaction: a response logs in once (request consumed, assertion remembered) and whatever
    it creates exists entirely or not at all. An item is written once per transaction, so counters of
    items created here are set in them rather than added to."""
    ops: list[table.Op] = [assertion_guard_op(login.provider.id, login.assertion_id,
                                              login.assertion_expires_at)]
    if login.request_id is not None:
        ops.append(consume_request_op(login.request_id))
    member, user = login.member, login.user
    if login.team_link is not None:
        member.teams += 1
    if login.new_user:
        user.org_count = 1
        ops += user_put_ops(user)
    if login.new_member:
        ops += [op for op in add_member_ops(member) if not (login.new_user and op.name == "user-org-count")]
    else:
        expression = "SET sso = :t ADD teams :n" if login.team_link else "SET sso = :t"
        values = {":t": True, ":n": 1} if login.team_link else {":t": True}
        ops.append(table.update_op(keys.member(member.org_id, member.user_id), expression, values, EXISTS,
                                   name="member"))
    if login.bind:
        ops.append(_bind_op(login))
    if login.team_link is not None:
        ops += [table.put_op(login.team_link.to_item(), NEW, name="team-link"),
                team_store.team_members_op(member.org_id, login.team_link.team_id, 1)]
    ops.append(table.put_op({**keys.token(login.token_hash), "type": "token", "userId": user.id,
                             "label": f"SAML login ({login.provider.label})", "createdAt": now_iso(),
                             "ssoOrg": member.org_id, "samlProvider": login.provider.id}, NEW,
                            name="token"))
    table.transact(ops)
    member.sso = True
