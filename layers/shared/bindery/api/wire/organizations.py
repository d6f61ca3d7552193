"""Organization shape, with `permissions` computed for the caller's role, and its agent instructions.

`org_fields` gives the body other shapes nest (links); `org_model` gives the response model the
organization routes return.
"""

from __future__ import annotations

from typing import Any

from bindery.api.responses.organizations import Organization as OrganizationModel
from bindery.api.responses.organizations import OrganizationAgentInstructions
from bindery.api.wire.urls import api_url, app_url
from bindery.domain.access.role_order import at_least
from bindery.store.orgs import Organization


def org_permissions(role: str | None) -> dict[str, bool]:
    admin = at_least(role, "admin")
    member = role is not None
    return {
        "view": True, "admin": admin, "ownTeam": admin, "createContent": at_least(role, "create"),
        "createOpenAPISpec": at_least(role, "create"), "ingestConversations": admin,
        "viewBilling": admin, "listMembers": member, "listTeams": member,
        "listIntegrations": member, "listInstallations": admin, "installIntegration": admin,
    }


def org_fields(org: Organization, role: str | None) -> dict[str, Any]:
    urls: dict[str, str] = {"location": api_url(f"/orgs/{org.id}"), "app": app_url(f"/o/{org.id}")}
    if org.logo:
        urls["logo"] = org.logo
    body: dict[str, Any] = {
        "object": "organization", "id": org.id, "title": org.title, "createdAt": org.created_at,
        "emailDomains": org.email_domains, "type": org.type, "defaultRole": org.default_role,
        "sso": org.sso, "ai": org.ai, "inviteLinks": org.invite_links, "plan": org.plan,
        "mergeRules": org.merge_rules, "urls": urls, "trial": {"status": "notapplicable", "count": 0},
        "permissions": org_permissions(role),
    }
    for key, value in (("hostname", org.hostname), ("useCase", org.use_case),
                       ("communityType", org.community_type), ("defaultContent", org.default_content)):
        if value is not None:
            body[key] = value
    return body


def org_model(org: Organization, role: str | None) -> OrganizationModel:
    return OrganizationModel.model_validate(org_fields(org, role))


def agent_instructions_to_wire(org_id: str, *, instructions: dict[str, Any], updated_at: str,
                               updated_by: str) -> OrganizationAgentInstructions:
    return OrganizationAgentInstructions.model_validate({
        "object": "agent-instructions", "instructions": instructions, "updatedAt": updated_at,
        "updatedBy": updated_by, "urls": {"location": api_url(f"/orgs/{org_id}/agent-instructions")}})
