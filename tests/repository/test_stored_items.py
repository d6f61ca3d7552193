"""Items as the stores have always written them (attribute names and types, store/item_fields.py) read
back and are written again unchanged, on every engine: data already in a table stays readable."""

from __future__ import annotations

from typing import Any

import pytest

from bindery.store import table
from bindery.store.change_requests import ChangeRequest
from bindery.store.conversations import Conversation
from bindery.store.git_runs import GitRun
from bindery.store.integration_installations import Installation
from bindery.store.integrations import Integration
from bindery.store.openapi_specs import Spec
from bindery.store.orgs import Organization
from bindery.store.saml import Provider
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site
from bindery.store.spaces import Space
from bindery.store.translations import Translation

pytestmark = pytest.mark.repository

AT, LATER = "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"

# Every field set, as stored (keys and index attributes left out: they are not fields).
STORED: list[tuple[Any, dict[str, Any]]] = [
    (ChangeRequest, {
        "type": "change-request", "id": "cr1", "spaceId": "sp1", "orgId": "o1", "number": 4, "status": "open",
        "subject": "Fix", "createdBy": "u1", "createdAt": AT, "updatedAt": LATER, "revision": "r2",
        "revisionInitial": "r0", "description": {"nodes": []}, "revisionMergedAncestor": "r1",
        "revisionMerged": "r3", "mergedBy": "u2", "mergedAt": LATER, "comments": 2, "commentsResolved": 1,
        "reviews": 3, "agentTaskId": "t1", "conversationsIssuesCluster": "c1", "contributors": {"u1", "u2"},
        "requestedReviewers": {"u3"}, "latestReviews": {"u3": {"id": "rv1", "status": "approved",
                                                              "revision": "r2"}}}),
    (Conversation, {
        "type": "conversation", "id": "cv1", "orgId": "o1", "source": "intercom", "externalId": "x1",
        "createdAt": AT, "ingestedAt": LATER, "digest": "d1", "rev": "v2", "subject": "Login",
        "metadata": {"a": "b"}, "processedAt": LATER, "processedRev": "v1",
        "issues": [{"id": "i1", "cluster": "c1", "week": "2026-W01"}]}),
    (Installation, {
        "type": "integration-installation", "id": "in1", "integration": "slack", "orgId": "o1",
        "status": "active", "createdAt": AT, "updatedAt": LATER, "spaceSelection": "all",
        "siteSelection": "selected", "configuration": {"channel": "#docs"}, "externalIds": ["e1"],
        "spaces": 2, "sites": 1}),
    (Integration, {
        "type": "integration", "name": "slack", "ownerId": "o1", "version": 2, "title": "Slack",
        "createdAt": AT, "updatedAt": LATER, "scriptDigest": "s1", "description": "Chat",
        "summary": "Posts", "target": "organization", "visibility": "private", "runtime": "v2",
        "scopes": ["space:content:read"], "categories": ["collaboration"],
        "blocks": [{"id": "b1", "urlUnfurl": ["https://example.com/x"]}], "contentSources": [{"id": "c1"}],
        "configurations": {"account": {}}, "externalLinks": [{"url": "https://example.com"}],
        "contentSecurityPolicy": "default-src 'self'", "icon": {"digest": "i1", "contentType": "image/png"},
        "previewImages": [{"digest": "p1", "contentType": "image/png"}], "secrets": "sealed",
        "devTunnel": "https://tunnel.example", "devAll": True, "endpoint": "https://hooks.example",
        "search": "slack slack", "blockDomains": ["example.com"], "hasBlocks": True,
        "hasContentSources": True}),
    (Spec, {
        "type": "openapi-spec", "id": "sp1", "orgId": "o1", "slug": "petstore", "createdAt": AT,
        "updatedAt": LATER, "createdBy": "u1", "job": "j1", "visibility": "public",
        "sourceURL": "https://example.com/openapi.json", "sourceDigest": "sd", "processingState": "failed",
        "claimedAt": AT, "lastVersion": "v1", "lastRoot": "openapi.json", "lastDigest": "ld",
        "lastProcessedAt": LATER, "lastProcessErrorCode": "INVALID", "versionCount": 1,
        "lastProcessedErrors": [{"message": "bad", "path": "/paths"}]}),
    (Organization, {
        "type": "organization", "id": "o1", "title": "Acme", "createdAt": AT, "emailDomains": ["acme.io"],
        "hostname": "acme", "orgType": "community", "useCase": "docs", "communityType": "oss",
        "defaultRole": "edit", "defaultContent": {"spaceId": "sp1"}, "sso": True, "ai": False,
        "inviteLinks": False, "plan": "free_2024", "mergeRules": {"type": "custom"}, "logo": "logo.png",
        "memberCount": 3, "adminCount": 1, "teamCount": 2, "inviteCount": 4, "spaceCount": 5,
        "collectionCount": 6, "openapiSpecCount": 7, "translationCount": 8, "glossaryEntryCount": 9}),
    (Provider, {
        "type": "saml-provider", "id": "p1", "orgId": "o1", "label": "Okta", "createdAt": AT,
        "updatedAt": LATER, "entityID": "https://idp.example", "ssoURL": "https://idp.example/sso",
        "certificate": "PEM", "defaultTeam": "t1", "defaultRole": "read", "active": True}),
    (Site, {
        "type": "site", "id": "s1", "orgId": "o1", "title": "Docs", "titleSearch": "docs", "createdAt": AT,
        "updatedAt": LATER, "siteType": "premium", "visibility": "share-link", "published": True,
        "basename": "docs", "hostname": "docs.acme.io", "proxy": "acme.io/docs", "adaptiveContent": True,
        "agentsContext": "excluded", "siteSpaces": 2, "defaultSiteSpace": "ss1",
        "defaultSiteSection": "sec1"}),
    (SiteSpace, {
        "type": "site-space", "id": "ss1", "siteId": "s1", "orgId": "o1", "spaceId": "sp1", "path": "guide",
        "position": "a0", "createdAt": AT, "section": "sec1", "condition": "visitor.claims.paid"}),
    (Section, {
        "type": "site-section", "id": "sec1", "siteId": "s1", "title": "API", "path": "api", "position": "a0",
        "createdAt": AT, "description": "Reference", "condition": "visitor.claims.dev", "icon": "code",
        "sectionGroup": "g1", "defaultSiteSpace": "ss1"}),
    (SectionGroup, {
        "type": "site-section-group", "id": "g1", "siteId": "s1", "title": "Products", "position": "a0",
        "createdAt": AT, "icon": "box", "parent": "g0"}),
    (GitRun, {
        "type": "git-run", "id": "run1", "spaceId": "sp1", "kind": "import", "status": "failed",
        "url": "https://git.example/r.git", "ref": "refs/heads/main", "projectDirectory": "docs",
        "standalone": True, "gitInfo": {"provider": "github"}, "createdBy": "u1", "createdAt": AT,
        "updatedAt": LATER, "attempts": 2, "expiresAt": 4_000_000_000, "commitMessage": "Sync",
        "claimedAt": AT, "error": "unreachable", "revision": "r1", "commit": "c0ffee",
        "warnings": ["page.md: unknown block"]}),
    (Space, {
        "type": "space", "id": "sp1", "orgId": "o1", "createdAt": AT, "updatedAt": LATER, "position": "a0",
        "parent": "c1", "ancestors": ["c1"], "defaultLevel": "read", "grants": {"user:u1": "admin"},
        "title": "Guide", "emoji": "1f4da", "icon": "book", "visibility": "public", "revision": "r1",
        "editMode": "locked", "mergeRules": {"type": "inherit"}, "language": "fr", "deletedAt": LATER,
        "expiresAt": 4_000_000_000, "comments": 1, "commentsResolved": 2, "changeRequests": 6,
        "changeRequestsOpen": 1, "changeRequestsDraft": 2, "changeRequestsMerged": 3,
        "gitSync": {"repoURL": "https://git.example/r", "branch": "main"}}),
    (Translation, {
        "type": "translation", "id": "tr1", "orgId": "o1", "createdAt": AT, "updatedAt": LATER,
        "createdBy": "u1", "sourceSpace": "sp1", "sourceLanguage": "en", "language": "fr",
        "instructions": {"tone": "formal"}, "status": "failed", "job": "j2", "claimedAt": AT, "rerun": True,
        "resultSpace": "sp2", "resultRevision": "r5", "sourceRevision": "r4", "stateObject": "obj",
        "lastRunError": {"code": "BACKEND"}, "stats": {"runs": 2, "totalWords": 50, "totalPages": 3,
                                                       "totalDuration": 9, "latestRunDuration": 4,
                                                       "latestPages": 1, "latestWords": 20}}),
]


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in item.items() if not name.startswith(("PK", "SK", "GSI"))}


def _stored_and_read(entity: Any, stored: dict[str, Any]) -> Any:
    """Puts `stored` as it is (with its keys) and reads it back with the entity's reader."""
    key = {name: value for name, value in entity.from_item(stored).to_item().items()
           if name.startswith(("PK", "SK", "GSI"))}
    table.transact([table.put_op({**key, **stored})])
    read = table.get({"PK": key["PK"], "SK": key["SK"]})
    assert read is not None
    return entity.from_item(read)


@pytest.mark.parametrize(("entity", "stored"), STORED, ids=[entity.__name__ for entity, _ in STORED])
def test_an_item_with_every_field_reads_back_and_is_written_again_as_it_was(entity: Any,
                                                                             stored: dict[str, Any]):
    assert _fields(_stored_and_read(entity, stored).to_item()) == stored


def test_string_sets_read_as_sorted_lists_and_an_empty_one_is_no_attribute():
    stored = {**dict(STORED)[ChangeRequest], "contributors": {"u2", "u1"}}
    del stored["requestedReviewers"]
    read = _stored_and_read(ChangeRequest, stored)
    assert (read.contributors, read.requested_reviewers) == (["u1", "u2"], [])
    assert "requestedReviewers" not in read.to_item()


def test_a_null_default_role_means_guests_and_stays_null():
    org = _stored_and_read(Organization, {**dict(STORED)[Organization], "defaultRole": None})
    provider = _stored_and_read(Provider, {**dict(STORED)[Provider], "defaultRole": None})
    assert (org.default_role, provider.default_role) == (None, None)
    assert (org.to_item()["defaultRole"], provider.to_item()["defaultRole"]) == (None, None)
    sets, removes = org.settings_update()
    assert ("defaultRole", None) in sets.items()
    assert "defaultRole" not in removes


def test_absent_optional_fields_read_as_defaults_and_are_not_written():
    stored = {name: value for name, value in dict(STORED)[Spec].items()
              if name not in ("sourceURL", "claimedAt", "lastProcessedErrors", "lastVersion")}
    spec = _stored_and_read(Spec, stored)
    assert (spec.source_url, spec.claimed_at, spec.last_errors, spec.last_version) == (None, None, [], None)
    assert _fields(spec.to_item()) == stored  # an empty error list is left out too


def test_an_organizations_settings_update_leaves_its_id_and_counters_alone():
    org = _stored_and_read(Organization, {**dict(STORED)[Organization], "logo": None})
    sets, removes = org.settings_update()
    assert not {"id", "memberCount", "spaceCount", "glossaryEntryCount"} & sets.keys()
    assert removes == ("logo",)
    assert (sets["orgType"], sets["emailDomains"]) == ("community", ["acme.io"])
