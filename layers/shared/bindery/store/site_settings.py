"""A site's settings beside its structure: the adaptive-content visitor schema, the customization and
the site spaces' overrides of it (docs/sites.md; keys in bindery.keys.sites).

Each is one item in the site's partition, its document kept as JSON text (a DynamoDB map would refuse
floats and turn integers into Decimals on the way back). Writes are conditioned on the site still being
there (a transaction with a check of the site item), so a setting never outlives a deleted site.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.table import Item

SITE_EXISTS = "attribute_exists(PK)"


@dataclass(frozen=True)
class AdaptiveSchema:
    json_schema: dict[str, Any]
    updated_at: str


def get_adaptive_schema(site_id: str) -> AdaptiveSchema | None:
    item = table.get(site_keys.adaptive_schema(site_id))
    return AdaptiveSchema(json.loads(item["jsonSchema"]), item["updatedAt"]) if item else None


def site_check_op(site_id: str) -> table.Op:
    return table.condition_op(site_keys.site(site_id), SITE_EXISTS, name="site")


def put_adaptive_schema_op(site_id: str, schema: AdaptiveSchema) -> table.Op:
    return table.put_op({**site_keys.adaptive_schema(site_id), "type": "site-adaptive-schema",
                         "jsonSchema": json.dumps(schema.json_schema), "updatedAt": schema.updated_at},
                        name="adaptive-schema")


def customization_of(item: Item) -> dict[str, Any]:
    settings: dict[str, Any] = json.loads(item["settings"])
    return settings


def put_customization_op(site_id: str, settings: dict[str, Any], now: str) -> table.Op:
    return table.put_op({**site_keys.customization(site_id), "type": "site-customization",
                         "settings": json.dumps(settings), "updatedAt": now}, name="customization")


def put_override_op(site_id: str, site_space_id: str, overrides: dict[str, Any], now: str) -> table.Op:
    return table.put_op({**site_keys.site_space_customization(site_id, site_space_id),
                         "type": "site-space-customization", "siteSpaceId": site_space_id,
                         "settings": json.dumps(overrides), "updatedAt": now}, name="override")


def delete_override_op(site_id: str, site_space_id: str) -> table.Op:
    return table.delete_op(site_keys.site_space_customization(site_id, site_space_id), name="override")


@dataclass
class ShareLink:
    id: str
    site_id: str
    name: str
    key: str  # the secret a visitor's URL carries (`shareKey`)
    active: bool
    created_at: str

    def to_item(self) -> Item:
        return {**site_keys.share_link(self.site_id, self.id), "type": "site-share-link", "id": self.id,
                "siteId": self.site_id, "name": self.name, "key": self.key, "active": self.active,
                "createdAt": self.created_at}

    @classmethod
    def from_item(cls, item: Item) -> ShareLink:
        return cls(id=item["id"], site_id=item["siteId"], name=item["name"], key=item["key"],
                   active=bool(item["active"]), created_at=item["createdAt"])


def put_share_link_op(link: ShareLink) -> table.Op:
    return table.put_op(link.to_item(), "attribute_not_exists(PK)", name="share-link")


def update_share_link_op(link: ShareLink, changed: ShareLink) -> table.Op:
    """Writes the name and the state of `changed` that differ from `link` (as read), if it is still
    there."""
    sets = {name: getattr(changed, attr) for attr, name in (("name", "name"), ("active", "active"))
            if getattr(changed, attr) != getattr(link, attr)}
    names = {f"#s{i}": name for i, name in enumerate(sets)}
    values = {f":s{i}": value for i, value in enumerate(sets.values())}
    expression = "SET " + ", ".join(f"#s{i} = :s{i}" for i in range(len(sets)))
    return table.update_op(site_keys.share_link(link.site_id, link.id), expression, values,
                           "attribute_exists(PK)", names, name="share-link")


def delete_share_link_op(link: ShareLink) -> table.Op:
    return table.delete_op(site_keys.share_link(link.site_id, link.id), name="share-link")


@dataclass(frozen=True)
class PublishingAuth:
    """A site's publishing-auth settings (the spec's SitePublishingAuth): visitor tokens of a
    `visitor-auth` site are JWTs signed (HS256) with `private_key`."""

    private_key: str
    backend: str = "custom"  # custom | integration
    fallback_url: str | None = None
    integration: str | None = None
    updated_at: str = ""

    def to_item(self, site_id: str) -> Item:
        item: Item = {**site_keys.publishing_auth(site_id), "type": "site-publishing-auth",
                      "privateKey": self.private_key, "backend": self.backend, "updatedAt": self.updated_at}
        if self.fallback_url is not None:
            item["fallbackURL"] = self.fallback_url
        if self.integration is not None:
            item["integration"] = self.integration
        return item

    @classmethod
    def from_item(cls, item: Item) -> PublishingAuth:
        return cls(private_key=item["privateKey"], backend=item.get("backend", "custom"),
                   fallback_url=item.get("fallbackURL"), integration=item.get("integration"),
                   updated_at=item.get("updatedAt", ""))


def put_publishing_auth_op(site_id: str, auth: PublishingAuth) -> table.Op:
    return table.put_op(auth.to_item(site_id), name="publishing-auth")
