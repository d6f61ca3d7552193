"""The role rules of the authorization matrix (issue 22): the weakest role each operation that names one of
A's ids needs, written once from docs/permissions.md and the area documents it cites, and what a caller
of each kind is therefore expected to get.

The role is the caller's role where the operation acts: on the space for `/spaces/…` (their effective
role: docs/permissions.md), on the collection for `/collections/…`, in the organization for `/orgs/…`.
The members of the matrix have no grants and A's content inherits every level, so a member's role on
A's space and collection is their organization role; the guest's role on the space is their one grant,
and they have none on the collection and none in the organization.
"""

from __future__ import annotations

from bindery.domain.access.role_order import ROLES, rank, strongest
from tests.api.authorization_world import Operation

MEMBER, ANYONE = "member", "anyone"  # any member of A, guests included; any signed-in user

# role  method  path: ORG, SPACE, SITE, CR, COLL are the shorthands of API.md (COLL: /collections/{id}; INT:
# /integrations/{integrationName}; INST: INT/installations/{installationId}).
# A's comments and replies are Alice's: editing and deleting another's needs admin (docs/comments.md).
NEEDS_TABLE = """
# Space, its content, Git Sync and grants: docs/permissions.md, docs/decisions.md (Spaces), git-sync.md
read    GET     SPACE SPACE/links SPACE/search SPACE/git/runs SPACE/git/runs/{runId} SPACE/git/info
read    GET     SPACE/content SPACE/content/pages SPACE/content/files SPACE/content/files/{fileId}
read    GET     SPACE/content/files/{fileId}/backlinks SPACE/content/page/{pageId}
read    GET     SPACE/content/page/{pageId}/links SPACE/content/path/{pagePath}
read    GET     SPACE/content/reusable-contents/{reusableContentId} SPACE/revisions/{revisionId}
read    GET     SPACE/revisions/{revisionId}/files SPACE/revisions/{revisionId}/files/{fileId}
read    GET     SPACE/revisions/{revisionId}/page/{pageId} SPACE/revisions/{revisionId}/page/{pageId}/document
read    GET     SPACE/revisions/{revisionId}/pages SPACE/revisions/{revisionId}/path/{pagePath}
read    GET     SPACE/revisions/{revisionId}/reusable-contents/{reusableContentId}
read    GET     SPACE/revisions/{revisionId}/reusable-contents/{reusableContentId}/document
read    GET     SPACE/permissions/users SPACE/permissions/teams
edit    POST    SPACE/content/template SPACE/git/import SPACE/git/export
create  POST    SPACE/duplicate
admin   PATCH   SPACE
admin   DELETE  SPACE
admin   POST    SPACE/move SPACE/restore SPACE/transfer SPACE/permissions
admin   PATCH   SPACE/permissions/users/{userId} SPACE/permissions/teams/{teamId}
admin   DELETE  SPACE/permissions/users/{userId} SPACE/permissions/teams/{teamId}
# Change requests: docs/change-requests.md (Roles)
read    GET     SPACE/change-requests CR CR/changes CR/contributors CR/pdf CR/requested-reviewers CR/reviews
read    GET     CR/reviews/{reviewId} CR/content CR/content/pages CR/content/files CR/content/files/{fileId}
read    GET     CR/content/files/{fileId}/backlinks CR/content/page/{pageId} CR/content/page/{pageId}/links
read    GET     CR/content/path/{pagePath} CR/content/reusable-contents/{reusableContentId}
edit    POST    SPACE/change-requests CR/content CR/update CR/requested-reviewers
edit    PATCH   CR
edit    DELETE  CR/requested-reviewers/{userId}
review  POST    CR/reviews CR/merge
# Comments, on the space and on a change request: docs/comments.md (Permissions)
read    GET     SPACE/commenters SPACE/comments SPACE/comments/{commentId} SPACE/comments/{commentId}/replies
read    GET     SPACE/comments/{commentId}/replies/{commentReplyId} CR/commenters CR/comments
read    GET     CR/comments/{commentId} CR/comments/{commentId}/replies
read    GET     CR/comments/{commentId}/replies/{commentReplyId}
comment POST    SPACE/comments SPACE/comments/{commentId}/replies CR/comments CR/comments/{commentId}/replies
admin   PUT     SPACE/comments/{commentId} SPACE/comments/{commentId}/replies/{commentReplyId}
admin   PUT     CR/comments/{commentId} CR/comments/{commentId}/replies/{commentReplyId}
admin   DELETE  SPACE/comments/{commentId} SPACE/comments/{commentId}/replies/{commentReplyId}
admin   DELETE  CR/comments/{commentId} CR/comments/{commentId}/replies/{commentReplyId}
# Collections: docs/decisions.md (Collections, moves and transfers; Permissions)
read    GET     COLL COLL/spaces COLL/permissions/users COLL/permissions/teams
admin   PATCH   COLL COLL/permissions/users/{userId} COLL/permissions/teams/{teamId}
admin   DELETE  COLL COLL/permissions/users/{userId} COLL/permissions/teams/{teamId}
admin   POST    COLL/move COLL/transfer COLL/permissions
# The organization: docs/decisions.md (Organizations, Members, Teams, Invites). Listings of content show
# a member what their roles let them see (guests: what they were granted).
member  GET     ORG ORG/spaces ORG/collections ORG/change-requests ORG/search
member  POST    ORG/ping ORG/saml/{samlProviderId}/link
read    GET     ORG/agent-instructions ORG/members ORG/members/{userId} ORG/members/{userId}/spaces
read    GET     ORG/members/{userId}/teams ORG/teams ORG/teams/{teamId} ORG/teams/{teamId}/members
create  POST    ORG/spaces ORG/collections
admin   PATCH   ORG ORG/members/{userId} ORG/link-invites/{inviteId} ORG/teams/{teamId}
admin   PUT     ORG/agent-instructions ORG/teams ORG/teams/{teamId}/members
admin   PUT     ORG/teams/{teamId}/members/{userId}
admin   POST    ORG/invites ORG/link-invites ORG/members/{userId}/sso
admin   GET     ORG/link-invites ORG/link-invites/{inviteId}
admin   DELETE  ORG/members/{userId} ORG/link-invites/{inviteId} ORG/teams/{teamId}
admin   DELETE  ORG/teams/{teamId}/members/{userId}
# OpenAPI specs (docs/openapi.md) and translations (docs/decisions.md, Translations): read, create manages
read    GET     ORG/openapi ORG/openapi/{specSlug} ORG/openapi/{specSlug}/versions
read    GET     ORG/openapi/{specSlug}/versions/{versionId}
read    GET     ORG/openapi/{specSlug}/versions/{versionId}/content
read    GET     ORG/translations ORG/translations/{translationId} ORG/translations-glossary
read    GET     ORG/translations-glossary/{glossaryEntryId}
create  POST    ORG/openapi ORG/translations ORG/translations/{translationId}/run
create  PUT     ORG/openapi/{specSlug} ORG/translations/{translationId} ORG/translations-glossary
create  PATCH   ORG/openapi/{specSlug}
create  DELETE  ORG/openapi/{specSlug} ORG/translations/{translationId}
# Conversations (docs/conversations.md): members with a role read; ingesting is ingestConversations (admins)
read    GET     ORG/conversations ORG/conversations/{conversationId} ORG/conversations-issues
read    GET     ORG/conversations-issues/{issueId} ORG/conversations-clusters
read    GET     ORG/conversations-clusters/{clusterId}
admin   POST    ORG/conversations
# SAML (docs/sso.md): organization admins
admin   GET     ORG/saml ORG/saml/{samlProviderId}
admin   POST    ORG/saml
admin   PATCH   ORG/saml/{samlProviderId}
admin   DELETE  ORG/saml/{samlProviderId}
# Sites (docs/sites.md): members with a role read, admins change; a published public site is read by anyone
anyone  GET     SITE/published SITE/sections SITE/site-spaces
read    GET     ORG/sites SITE SITE/customization SITE/adaptive-schema
read    GET     SITE/adaptive-schema/template-conditions
read    GET     SITE/section-groups SITE/site-spaces/{siteSpaceId}/customization
admin   GET     SITE/share-links SITE/publishing/auth
admin   POST    ORG/sites SITE/publish SITE/unpublish SITE/sections SITE/sections/{siteSectionId}/move
admin   POST    SITE/section-groups SITE/section-groups/{siteSectionGroupId}/sections SITE/share-links
admin   POST    SITE/site-spaces SITE/site-spaces/{siteSpaceId}/move SITE/publishing/auth/regenerate
admin   PATCH   SITE SITE/sections/{siteSectionId} SITE/section-groups/{siteSectionGroupId}
admin   PATCH   SITE/share-links/{shareLinkId} SITE/site-spaces/{siteSpaceId}
admin   PATCH   SITE/site-spaces/{siteSpaceId}/customization SITE/publishing/auth
admin   PUT     SITE/customization SITE/adaptive-schema
admin   DELETE  SITE SITE/sections/{siteSectionId} SITE/section-groups/{siteSectionGroupId}
admin   DELETE  SITE/section-groups/{siteSectionGroupId}/sections/{siteSectionId}
admin   DELETE  SITE/share-links/{shareLinkId} SITE/site-spaces/{siteSpaceId}
admin   DELETE  SITE/site-spaces/{siteSpaceId}/customization
# Open to any signed-in user, or to anyone (docs/decisions.md, docs/sso.md); joining needs an email of the
# organization's domains or the invite link's id (a member joining again changes nothing)
anyone  GET     /users/{userId} /email-domains/{emailDomain}/orgs ORG/sso
anyone  GET     /saml/{samlProviderId}/start /saml/{samlProviderId}/metadata
anyone  POST    /saml/{samlProviderId}/acs
anyone  POST    ORG/join ORG/invites/{inviteId}
# Integrations (docs/integrations.md): A's integration is private, so its record is for A's members
# (guests included, as ORG/integrations); its owner's admins publish, develop, read its installations,
# events and generated signing secret and make its tokens; its installation (on A) is read and managed
# by A's admins; what is installed on a space is read by the space's readers, on a site by the site's
# readers.
member  GET     INT ORG/integrations
admin   POST    INT INT/installations INST/spaces INST/sites INST/tokens
admin   PUT     INT/dev
admin   DELETE  INT INT/dev INST INST/spaces/{spaceId} INST/sites/{siteId}
admin   GET     INT/events INT/events/{eventId} INT/installations INT/spaces INT/sites
admin   GET     INT/signing-secrets
admin   GET     INST INST/spaces INST/spaces/{spaceId} INST/sites INST/sites/{siteId} ORG/installations
admin   PATCH   INST INST/spaces/{spaceId} INST/sites/{siteId}
read    GET     SPACE/integrations SITE/integrations
"""

SHORTHANDS = {"ORG": "/orgs/{organizationId}", "SITE": "/orgs/{organizationId}/sites/{siteId}",
              "SPACE": "/spaces/{spaceId}", "CR": "/spaces/{spaceId}/change-requests/{changeRequestId}",
              "COLL": "/collections/{collectionId}", "INT": "/integrations/{integrationName}",
              "INST": "/integrations/{integrationName}/installations/{installationId}"}


def _expand(path: str) -> str:
    head, _, tail = path.partition("/")
    return SHORTHANDS[head] + ("/" + tail if tail else "") if head in SHORTHANDS else path


def parse_needs(table: str) -> dict[tuple[str, str], str]:
    """NEEDS_TABLE as (method, path) → role; an operation named twice is an error in the table."""
    needs: dict[tuple[str, str], str] = {}
    for line in table.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        role, method, *paths = line.split()
        assert role in (*ROLES, MEMBER, ANYONE), line
        for path in paths:
            key = (method, _expand(path))
            assert key not in needs, f"{key} named twice in NEEDS_TABLE"
            needs[key] = role
    return needs


NEEDS = parse_needs(NEEDS_TABLE)

# The operations that answer no success to anyone allowed to call them in the matrix's world, each with
# its documented answer and why. Every other operation must succeed for everyone at or above its role.
UNSUCCESSFUL_FOR_EVERYONE: dict[tuple[str, str], tuple[int, str]] = {
    ("GET", "/spaces/{spaceId}/git/info"): (404, "404 until a Git Sync run succeeded (docs/git-sync.md); the "
                                                 "world's run is queued and never delivered"),
    ("DELETE", "/collections/{collectionId}"): (400, "a collection that still holds live spaces cannot be "
                                                     "deleted (docs/decisions.md, Collections)"),
    ("POST", "/saml/{samlProviderId}/acs"): (400, "the IdP's form post: without a SAMLResponse, a 400 "
                                                  "(docs/sso.md)"),
    # A's integration is installed on A, its space and its site already: one installation each.
    ("POST", "/integrations/{integrationName}/installations"): (
        409, "an organization installs an integration once (docs/integrations.md, Installations)"),
    ("POST", "/integrations/{integrationName}/installations/{installationId}/spaces"): (
        409, "the same space twice is a 409 (docs/integrations.md, On spaces and sites)"),
    ("POST", "/integrations/{integrationName}/installations/{installationId}/sites"): (
        409, "the same site twice is a 409 (docs/integrations.md, On spaces and sites)"),
}


def role_where(operation: Operation, org_role: str | None, space_grant: str | None) -> str | None:
    """The caller's role where `operation` acts (see the module's docstring)."""
    if operation.path.startswith("/spaces/"):
        return strongest(org_role, space_grant)
    return org_role


def expected(operation: Operation, org_role: str | None, space_grant: str | None) -> int | None:
    """None when the caller may call `operation`, else the status of the refusal: 404 where they have no
    role on the content (it does not exist for them: docs/permissions.md), 403 naming the role otherwise."""
    needed = NEEDS[operation.key]
    if needed in (ANYONE, MEMBER):
        return None
    role = role_where(operation, org_role, space_grant)
    if rank(role) >= rank(needed):
        return None
    content = operation.path.startswith(("/spaces/", "/collections/"))
    return 404 if content and role is None else 403
