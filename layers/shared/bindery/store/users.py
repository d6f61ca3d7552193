"""Users, their unique emails, and API tokens (stored only as hashes)."""

from __future__ import annotations

from dataclasses import dataclass

from bindery import keys
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict
from bindery.store import table
from bindery.store.table import Item


@dataclass
class User:
    id: str
    display_name: str
    email: str | None = None
    photo_url: str | None = None
    email_verified: bool = False
    created_at: str = ""
    # How many organizations the user is a member of (`GET /orgs`'s count): moved by `org_count_op` in
    # the transaction that adds or removes a membership, or set on a user created in that transaction.
    org_count: int = 0

    @property
    def email_domain(self) -> str | None:
        return self.email.rsplit("@", 1)[1].lower() if self.email and "@" in self.email else None

    def to_item(self) -> Item:
        item: Item = {**keys.user(self.id), "type": "user", "id": self.id, "displayName": self.display_name,
                      "emailVerified": self.email_verified, "createdAt": self.created_at,
                      "orgCount": self.org_count}
        if self.email:
            item["email"] = self.email
        if self.photo_url:
            item["photoURL"] = self.photo_url
        return item

    @classmethod
    def from_item(cls, item: Item) -> User:
        return cls(id=item["id"], display_name=item["displayName"], email=item.get("email"),
                   photo_url=item.get("photoURL"), email_verified=bool(item.get("emailVerified")),
                   created_at=item.get("createdAt", ""), org_count=int(item.get("orgCount", 0)))


def user_put_ops(user: User) -> list[table.Op]:
    """A new user and its email guard; the guard makes a second user with the same email fail."""
    ops = [table.put_op(user.to_item(), "attribute_not_exists(PK)")]
    if user.email:
        guard = {**keys.user_email(user.email), "type": "user-email", "userId": user.id}
        ops.append(table.put_op(guard, "attribute_not_exists(PK)"))
    return ops


def org_count_op(user_id: str, delta: int) -> table.Op:
    """ADD to the user's organization count, in the transaction that adds or removes the membership (a
    user created in that same transaction carries the count in its item instead: one item, one op)."""
    return table.update_op(keys.user(user_id), "ADD orgCount :n", {":n": delta}, "attribute_exists(PK)",
                           name="user-org-count")


def user_key(user_id: str) -> keys.Key:
    """A user's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.user(user_id)


def email_key(email: str) -> keys.Key:
    """The key of an email's uniqueness guard (its item holds `userId`), for batched reads."""
    return keys.user_email(email)


def create_user(user: User) -> User:
    user.created_at = user.created_at or now_iso()
    try:
        table.transact(user_put_ops(user))
    except table.TransactionConflict as error:
        raise Conflict(f"email: a user with the email {user.email} already exists") from error
    return user


def get_user(user_id: str) -> User | None:
    item = table.get(keys.user(user_id))
    return User.from_item(item) if item else None


def user_id_for_email(email: str) -> str | None:
    item = table.get(keys.user_email(email))
    return str(item["userId"]) if item else None


def get_users(user_ids: list[str]) -> dict[str, User]:
    found: dict[str, User] = {}
    for start in range(0, len(user_ids), 100):
        chunk = list(dict.fromkeys(user_ids[start:start + 100]))
        for item in table.batch_get([keys.user(uid) for uid in chunk]):
            found[item["id"]] = User.from_item(item)
    return found


# --- tokens -----------------------------------------------------------------------------------
def create_token(token_hash: str, user_id: str, label: str = "") -> None:
    item = {**keys.token(token_hash), "type": "token", "userId": user_id, "label": label,
            "createdAt": now_iso()}
    table.transact([table.put_op(item, "attribute_not_exists(PK)"),
                    table.condition_op(keys.user(user_id), "attribute_exists(PK)")])


def user_id_for_token(token_hash: str) -> str | None:
    owner = token_owner(token_hash)
    return owner[0] if owner else None


def token_owner(token_hash: str) -> tuple[str, str | None] | None:
    """The token's user, and the organization whose SAML login issued it (None for other tokens)."""
    item = token_item(token_hash)
    return (str(item["userId"]), item.get("ssoOrg")) if item else None


def token_item(token_hash: str) -> Item | None:
    """The whole token item (the authorizer: an installation token's item names its installation and
    scopes; an expired one reads as gone)."""
    return table.get(keys.token(token_hash), consistent=False)


def delete_token(token_hash: str) -> None:
    table.transact([table.delete_op(keys.token(token_hash))])
