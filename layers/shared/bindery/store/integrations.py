"""Integrations: the published record, its assets and script (keys in bindery.keys.integrations).

    {PK: INTEGRATION#{name}, SK: INTEGRATION, type: "integration", GSI1 INTEGRATIONS / {name},
     GSI2 ORG#{ownerId}#INTEGRATIONS / {name}, name, ownerId, version, title, description?, summary?,
     target, visibility, scopes, categories, blocks, contentSources, configurations, externalLinks,
     contentSecurityPolicy?, runtime, icon? {digest, contentType}, previewImages [{digest, contentType}],
     scriptDigest, secrets? (sealed, base64: bindery.platform.secret_box), signingSecret? (the generated one,
     sealed, base64), search (lower-cased name and title), blockDomains, hasBlocks, hasContentSources,
     devTunnel?, devAll, endpoint?, createdAt, updatedAt}

Icons, preview images and scripts are S3 objects named by their SHA-256 under the integration's prefix,
written before the item that names them (equal bytes are one object). A publish is one conditional
PutItem on the version it read (`version = :seen`, or `attribute_not_exists` for a new name), so two
concurrent publishes cannot both become version n+1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery.keys import integrations as integration_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.objects import object_store
from bindery.store.table import Item

NEW = "attribute_not_exists(PK)"


@dataclass
class Integration:
    name: str
    owner_id: str
    version: int
    title: str
    created_at: str
    updated_at: str
    script_digest: str
    description: str | None = None
    summary: str | None = None
    target: str = "all"
    visibility: str = "public"
    runtime: str = "v1"
    scopes: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)
    content_sources: list[dict[str, Any]] = field(default_factory=list)
    configurations: dict[str, Any] = field(default_factory=dict)
    external_links: list[dict[str, Any]] = field(default_factory=list)
    content_security_policy: Any = None
    icon: dict[str, str] | None = None
    preview_images: list[dict[str, str]] = field(default_factory=list)
    secrets: str | None = None
    dev_tunnel: str | None = None
    dev_all: bool = False
    # Where events are delivered outside development mode (the publish body's `endpoint`, a Bindery
    # extension: docs/integrations.md, "Delivered").
    endpoint: str | None = None
    # The signing secret Bindery generated at its first publish (sealed, base64; docs/integrations.md,
    # "Delivered"); kept by every later publish.
    signing_secret: str | None = None

    _FIELDS = ItemFields(
        ("name", "name"), ("owner_id", "ownerId"), ("version", "version"), ("title", "title"),
        ("created_at", "createdAt"), ("updated_at", "updatedAt"), ("script_digest", "scriptDigest"),
        ("description", "description"), ("summary", "summary"), ("target", "target"),
        ("visibility", "visibility"), ("runtime", "runtime"), ("scopes", "scopes"),
        ("categories", "categories"), ("blocks", "blocks"), ("content_sources", "contentSources"),
        ("configurations", "configurations"), ("external_links", "externalLinks"),
        ("content_security_policy", "contentSecurityPolicy"), ("icon", "icon"),
        ("preview_images", "previewImages"), ("secrets", "secrets"), ("dev_tunnel", "devTunnel"),
        ("dev_all", "devAll"), ("endpoint", "endpoint"), ("signing_secret", "signingSecret"),
    )

    @property
    def block_domains(self) -> list[str]:
        """The hosts of the blocks' `urlUnfurl` patterns (the listing's `blockDomain` filter)."""
        domains: set[str] = set()
        for block in self.blocks:
            for pattern in block.get("urlUnfurl") or []:
                host = str(pattern).split("://", 1)[-1].split("/", 1)[0].lower()
                if host:
                    domains.add(host)
        return sorted(domains)

    def to_item(self) -> Item:
        return {**integration_keys.integration(self.name),
                **integration_keys.integration_gsi(self.name, self.owner_id), "type": "integration",
                "search": f"{self.name} {self.title}".lower(), "blockDomains": self.block_domains,
                "hasBlocks": bool(self.blocks), "hasContentSources": bool(self.content_sources),
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Integration:
        return cls(**cls._FIELDS.values(item))


# --- objects -----------------------------------------------------------------------------------------------
def put_asset(name: str, digest: str, data: bytes) -> None:
    object_store().put(integration_keys.asset_object(name, digest), data)


def asset_url(name: str, digest: str, content_type: str, filename: str) -> str:
    return object_store().url(integration_keys.asset_object(name, digest), name=filename,
                              content_type=content_type)


def put_script(name: str, digest: str, data: bytes) -> None:
    object_store().put(integration_keys.script_object(name, digest), data)


def get_script(name: str, digest: str) -> bytes | None:
    return object_store().get(integration_keys.script_object(name, digest))


def script_url(name: str, digest: str) -> str:
    return object_store().url(integration_keys.script_object(name, digest), name=f"{name}.js",
                              content_type="text/javascript")


def delete_objects(name: str) -> None:
    object_store().delete_prefix(integration_keys.objects_prefix(name))


# --- reads -------------------------------------------------------------------------------------------------
def get_integration(name: str) -> Integration | None:
    item = table.get(integration_keys.integration(name))
    return Integration.from_item(item) if item else None


def get_integrations(names: list[str]) -> dict[str, Integration]:
    found: dict[str, Integration] = {}
    unique = list(dict.fromkeys(names))
    for start in range(0, len(unique), 100):
        for item in table.batch_get([integration_keys.integration(n) for n in unique[start:start + 100]]):
            found[item["name"]] = Integration.from_item(item)
    return found


@dataclass(frozen=True)
class IntegrationFilter:
    """The listing's filters (GET /integrations, ORG/integrations)."""

    search: str | None = None
    category: str | None = None
    block_domain: str | None = None
    blocks: bool | None = None
    content_sources: bool | None = None
    scope: str | None = None
    target: str | None = None
    # Which integrations the caller may see listed: the public ones, plus every one of these owners.
    visible_owners: tuple[str, ...] = ()

    def expression(self) -> Any:
        conditions: list[Any] = []
        visible: Any = Attr("visibility").eq("public")
        for owner in self.visible_owners:
            visible = visible | Attr("ownerId").eq(owner)
        conditions.append(visible)
        if self.search:
            conditions.append(Attr("search").contains(self.search.lower()))
        if self.category:
            conditions.append(Attr("categories").contains(self.category))
        if self.block_domain:
            conditions.append(Attr("blockDomains").contains(self.block_domain.lower()))
        if self.blocks is not None:
            conditions.append(Attr("hasBlocks").eq(self.blocks))
        if self.content_sources is not None:
            conditions.append(Attr("hasContentSources").eq(self.content_sources))
        if self.scope:
            conditions.append(Attr("scopes").contains(self.scope))
        if self.target:
            conditions.append(Attr("target").eq(self.target))
        combined = conditions[0]
        for condition in conditions[1:]:
            combined = combined & condition
        return combined


def _listing(owner: str | None, narrow: IntegrationFilter, limit: int = 100,
             start_key: dict[str, Any] | None = None) -> table.Query:
    if owner is not None:
        return table.Query(integration_keys.owner_partition(owner), index="GSI2", limit=limit,
                           start_key=start_key, filter=narrow.expression())
    return table.Query(integration_keys.ALL_INTEGRATIONS, index="GSI1", limit=limit, start_key=start_key,
                       filter=narrow.expression())


def integrations_page(owner: str | None, narrow: IntegrationFilter, limit: int,
                      start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of integrations by name: all of them (GSI1) or one owner's (GSI2), narrowed by the filter."""
    return _listing(owner, narrow, limit, start_key).run()


def integrations_count(owner: str | None, narrow: IntegrationFilter) -> int:
    return _listing(owner, narrow).count()


def partition_keys(name: str) -> list[dict[str, str]]:
    """Every item of the integration's partition (installations included), for an unpublish."""
    found: list[dict[str, str]] = []
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(integration_keys.partition(name), limit=1000, start_key=start).run()
        found.extend({"PK": item["PK"], "SK": item["SK"]} for item in page.items)
        if not page.last_key:
            return found
        start = page.last_key


# --- writes ------------------------------------------------------------------------------------------------
def publish_op(integration: Integration, seen_version: int | None) -> table.Op:
    """The new version of the integration, if no other publish came first."""
    if seen_version is None:
        return table.put_op(integration.to_item(), NEW, name="integration")
    return table.put_op(integration.to_item(), "version = :seen",
                        name="integration", ExpressionAttributeValues={":seen": seen_version})


def dev_mode_op(name: str, tunnel: str | None, all_orgs: bool) -> table.Op:
    key = integration_keys.integration(name)
    if tunnel is None:
        return table.update_op(key, "SET devAll = :no REMOVE devTunnel", {":no": False},
                               "attribute_exists(PK)", name="integration")
    return table.update_op(key, "SET devTunnel = :t, devAll = :all", {":t": tunnel, ":all": all_orgs},
                           "attribute_exists(PK)", name="integration")


def delete_partition(name: str) -> None:
    """The integration and everything in its partition (installations, space and site installations)."""
    table.batch_delete(partition_keys(name))
