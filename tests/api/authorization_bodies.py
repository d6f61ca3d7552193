"""Request bodies for the authorization matrices: for every write that names one of A's ids, one body that
would be valid for A's owner (so that a refusal comes from authorization, not from validation), and the
order in which an owner can send them all to one world.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from bindery.domain.sites.customization import DEFAULT as DEFAULT_CUSTOMIZATION
from tests.api.authorization_integration import victim_publish_body
from tests.api.authorization_world import WRITES, Operation, World
from tests.api.content.test_content_reads import doc
from tests.api.openapi.test_openapi_specs import PETSTORE_TEXT
from tests.api.sites.test_site_publishing import ADAPTIVE
from tests.client import Identity

DOCUMENT = doc("Mallory was here.")

ORG, SPACE = "/orgs/{organizationId}", "/spaces/{spaceId}"
SITE, CR = ORG + "/sites/{siteId}", SPACE + "/change-requests/{changeRequestId}"
INTEGRATION = "/integrations/{integrationName}"
INSTALLATION = INTEGRATION + "/installations/{installationId}"

# --- bodies: for every write, `{}` and one that would be valid for A's owner --------------------------------
Body = Callable[[dict[str, str], Identity, str], Any]
# (world ids, the caller, an organization the caller administers other than A) → body. None: the
# operation takes no body (or any), `{}` is all there is to send.
VALID_BODIES: dict[tuple[str, str], Body | None] = {
    ("PATCH", "/collections/{collectionId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", "/collections/{collectionId}/move"): lambda w, me, o: {"parent": w["archiveCollectionId"]},
    ("POST", "/collections/{collectionId}/permissions"): lambda w, me, o: {"role": "admin",
                                                                           "users": [me.user_id]},
    ("PATCH", "/collections/{collectionId}/permissions/teams/{teamId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", "/collections/{collectionId}/permissions/users/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", "/collections/{collectionId}/transfer"): lambda w, me, o: {"organization": o},
    ("PATCH", ORG): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", ORG + "/agent-instructions"): lambda w, me, o: {"instructions": DOCUMENT},
    ("POST", ORG + "/collections"): lambda w, me, o: {"title": "Mallory's"},
    ("POST", ORG + "/invites"): lambda w, me, o: {"emails": [w["extras.malloryEmail"]], "role": "admin"},
    ("POST", ORG + "/invites/{inviteId}"): None,
    ("POST", ORG + "/join"): None,
    ("POST", ORG + "/link-invites"): lambda w, me, o: {"role": "admin"},
    ("PATCH", ORG + "/link-invites/{inviteId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", ORG + "/members/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", ORG + "/members/{userId}/sso"): None,
    ("POST", ORG + "/openapi"): lambda w, me, o: {"slug": "mallory-spec", "source": {"text": PETSTORE_TEXT}},
    ("PATCH", ORG + "/openapi/{specSlug}"): lambda w, me, o: {"visibility": "public"},
    ("PUT", ORG + "/openapi/{specSlug}"): lambda w, me, o: {
        "source": {"text": PETSTORE_TEXT.replace("Pets", "Hijacked")}},
    ("POST", ORG + "/ping"): None,
    ("POST", ORG + "/saml"): lambda w, me, o: {"label": "Mallory IdP"},
    ("PATCH", ORG + "/saml/{samlProviderId}"): lambda w, me, o: {"label": "Hijacked"},
    ("POST", ORG + "/saml/{samlProviderId}/link"): None,
    ("POST", ORG + "/sites"): lambda w, me, o: {"title": "Mallory's site"},
    ("PATCH", SITE): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", SITE + "/adaptive-schema"): lambda w, me, o: {"jsonSchema": ADAPTIVE},
    ("PUT", SITE + "/customization"): lambda w, me, o: {
        **copy.deepcopy(DEFAULT_CUSTOMIZATION), "title": "Hijacked"},
    ("POST", SITE + "/publish"): None,
    ("POST", SITE + "/unpublish"): None,
    ("POST", SITE + "/section-groups"): lambda w, me, o: {"title": "Mallory's"},
    ("PATCH", SITE + "/section-groups/{siteSectionGroupId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/section-groups/{siteSectionGroupId}/sections"):
        lambda w, me, o: {"sectionId": w["siteSectionId"]},
    ("POST", SITE + "/sections"): lambda w, me, o: {"spaceId": w["spaceId"]},
    ("PATCH", SITE + "/sections/{siteSectionId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/sections/{siteSectionId}/move"): None,
    ("PATCH", SITE + "/publishing/auth"): lambda w, me, o: {"backend": "custom",
                                                             "fallbackURL": "https://mallory.test/"},
    ("POST", SITE + "/publishing/auth/regenerate"): None,
    ("POST", SITE + "/share-links"): lambda w, me, o: {"name": "Mallory's"},
    ("PATCH", SITE + "/share-links/{shareLinkId}"): lambda w, me, o: {"name": "Hijacked"},
    ("POST", SITE + "/site-spaces"): lambda w, me, o: {"spaceId": w["spaceId"]},
    ("PATCH", SITE + "/site-spaces/{siteSpaceId}"): lambda w, me, o: {"path": "hijacked"},
    ("PATCH", SITE + "/site-spaces/{siteSpaceId}/customization"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/site-spaces/{siteSpaceId}/move"): None,
    ("POST", ORG + "/spaces"): lambda w, me, o: {"title": "Mallory's"},
    ("PUT", ORG + "/teams"): lambda w, me, o: {"title": "Mallory's"},
    ("PATCH", ORG + "/teams/{teamId}"): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", ORG + "/teams/{teamId}/members"): lambda w, me, o: {"add": [me.user_id]},
    ("PUT", ORG + "/teams/{teamId}/members/{userId}"): lambda w, me, o: {"role": "member"},
    ("POST", ORG + "/translations"): lambda w, me, o: {
        "source": {"space": w["spaceId"], "language": "en"}, "language": "de"},
    ("PUT", ORG + "/translations-glossary"): lambda w, me, o: {
        "operations": [{"type": "delete", "id": w["glossaryEntryId"]}]},
    ("PUT", ORG + "/translations/{translationId}"): lambda w, me, o: {"instructions": DOCUMENT},
    ("POST", ORG + "/translations/{translationId}/run"): None,
    ("POST", "/saml/{samlProviderId}/acs"): None,
    ("POST", ORG + "/conversations"): lambda w, me, o: {
        "id": "mallory-ticket", "parts": [{"type": "message", "role": "user", "body": "Mallory's"}]},
    ("PATCH", SPACE): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SPACE + "/change-requests"): lambda w, me, o: {"subject": "Mallory's"},
    ("PATCH", CR): lambda w, me, o: {"subject": "Hijacked"},
    ("POST", CR + "/comments"): lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", CR + "/comments/{commentId}"): lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", CR + "/comments/{commentId}/replies"):
        lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", CR + "/comments/{commentId}/replies/{commentReplyId}"):
        lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", CR + "/content"): lambda w, me, o: {
        "changes": [{"operation": "update_page", "page": w["pageId"], "title": "Hijacked"}]},
    ("POST", CR + "/merge"): None,
    ("POST", CR + "/requested-reviewers"): lambda w, me, o: {"users": [w["reviewerId"]]},
    ("POST", CR + "/reviews"): lambda w, me, o: {"status": "changes-requested"},
    ("POST", CR + "/update"): None,
    ("POST", SPACE + "/comments"): lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", SPACE + "/comments/{commentId}"): lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", SPACE + "/comments/{commentId}/replies"):
        lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", SPACE + "/comments/{commentId}/replies/{commentReplyId}"):
        lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", SPACE + "/content/template"): lambda w, me, o: {"id": "getting-started"},
    ("POST", SPACE + "/duplicate"): None,
    ("POST", SPACE + "/git/export"): lambda w, me, o: {
        "url": w["extras.gitUrl"], "ref": "refs/heads/exported", "commitMessage": "Exported"},
    ("POST", SPACE + "/git/import"): lambda w, me, o: {"url": w["extras.gitUrl"], "ref": "refs/heads/main"},
    ("POST", SPACE + "/move"): lambda w, me, o: {"parent": None},
    ("POST", SPACE + "/permissions"): lambda w, me, o: {"role": "admin", "users": [me.user_id]},
    ("PATCH", SPACE + "/permissions/teams/{teamId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", SPACE + "/permissions/users/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", SPACE + "/restore"): None,
    ("POST", SPACE + "/transfer"): lambda w, me, o: {"organization": o},
    # Integrations (docs/integrations.md). A's integration is already installed on A, its space and its
    # site: the owner's install bodies answer 409 (UNSUCCESSFUL_FOR_EVERYONE), after every check.
    ("POST", INTEGRATION): lambda w, me, o: victim_publish_body(w["organizationId"]),
    ("PUT", INTEGRATION + "/dev"): lambda w, me, o: {"tunnelUrl": "https://victim-a.example/tunnel"},
    ("POST", INTEGRATION + "/installations"): lambda w, me, o: {"organization": w["organizationId"]},
    ("PATCH", INSTALLATION): lambda w, me, o: {"externalIds": ["hijacked"]},
    ("POST", INSTALLATION + "/spaces"): lambda w, me, o: {"space": w["spaceId"]},
    ("PATCH", INSTALLATION + "/spaces/{spaceId}"): lambda w, me, o: {"externalIds": ["hijacked"]},
    ("POST", INSTALLATION + "/sites"): lambda w, me, o: {"siteId": w["siteId"]},
    ("PATCH", INSTALLATION + "/sites/{siteId}"): lambda w, me, o: {"externalIds": ["hijacked"]},
    ("POST", INSTALLATION + "/tokens"): None,
}

# Bodies only outsiders send besides the valid one: publishing A's integration under the outsider's own
# organization (the name is A's: 403; with A's organization in the body it is a 404).
OUTSIDER_BODIES: dict[tuple[str, str], Body] = {
    ("POST", INTEGRATION): lambda w, me, o: victim_publish_body(o),
}



def bodies_for(world: World, operation: Operation, caller: Identity, elsewhere: str) -> list[Any]:
    """What a write is sent with: `{}` and, unless the body is irrelevant, one valid for A's owner."""
    if operation.method not in WRITES:
        return [None]
    make = VALID_BODIES[operation.key]
    return [{}] if make is None else [{}, make(body_values(world), caller, elsewhere)]


def outsider_bodies(world: World, operation: Operation, caller: Identity, elsewhere: str) -> list[Any]:
    """`bodies_for`, and the bodies only an outsider tries (OUTSIDER_BODIES)."""
    more = OUTSIDER_BODIES.get(operation.key)
    extra = [more(body_values(world), caller, elsewhere)] if more is not None else []
    return bodies_for(world, operation, caller, elsewhere) + extra


def body_values(world: World) -> dict[str, str]:
    return {**world.ids, **{f"extras.{k}": v for k, v in world.extras.items()}}



# Run last by Alice (each changes what the others act on): (method, path) → rank.
OWNER_LAST = {
    ("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge"): 1,
    ("POST", "/orgs/{organizationId}/sites/{siteId}/unpublish"): 1,
    ("POST", "/spaces/{spaceId}/transfer"): 2,
    ("POST", "/collections/{collectionId}/transfer"): 3,
    ("PATCH", "/orgs/{organizationId}/members/{userId}"): 4,  # Alice makes herself a reader
}

