"""Merge rules (the space's `mergeRules`, or the organization's when the space's inherit): what must hold
before a change request may be merged. Approvals are each reviewer's latest review
(ChangeRequest.latest_reviews), so no Query is needed at merge time.

| rule | holds when |
|---|---|
| require_specific_reviewers | each named user's latest review approves |
| require_one_of_specific_reviewers | one of the named users' latest review approves |
| require_at_least_one_review | someone's latest review approves |
| require_all_reviews_approved | no latest review requests changes |
| require_up_to_date_change_request | the change request is not outdated |
| require_change_request_subject / _description | the change request has one |
| require_agent_review | never: Bindery has no review agents (an admin can bypass) |
| allow_bypass | the named users skip every rule |

An unmet rule is a 403 naming it; nothing is merged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.platform.errors import BadRequest, Forbidden
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.orgs import Organization
from bindery.store.spaces import Space

# The rules that name users.
USER_RULES = ("require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass")


def checked_merge_rules(org_id: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The rules as stored (a space's or an organization's): users only on the rules that name users (the
    spec requires them there), each a member of the organization."""
    named: list[str] = []
    for index, rule in enumerate(rules.get("rules") or []):
        if rule["rule"] in USER_RULES:
            if rule.get("users") is None:
                raise BadRequest(f"mergeRules.rules.{index}.users: required for {rule['rule']}")
            named.extend(rule["users"])
        else:
            rule.pop("users", None)  # the spec lets other rules carry extra keys; they mean nothing
    members = member_store.get_members(org_id, list(dict.fromkeys(named))) if named else {}
    for user_id in named:
        if user_id not in members or members[user_id].disabled:
            raise BadRequest(f"mergeRules: {user_id} is not a member of this organization")
    return rules


def effective_rules(space: Space, org: Organization | None = None) -> list[Mapping[str, Any]]:
    """`org`: the space's organization when the caller already read it (consistently: the access check's
    BatchGetItem); otherwise, and only when the space inherits, one GetItem reads it."""
    rules: Mapping[str, Any] = space.merge_rules or {"type": "inherit"}
    if rules.get("type") == "inherit":
        if org is None or org.id != space.org_id:
            org = org_store.get_org(space.org_id)
        rules = (org.merge_rules if org else None) or {"type": "none"}
    return list(rules.get("rules") or []) if rules.get("type") == "rules" else []


def _unmet(rule: Mapping[str, Any], change_request: ChangeRequest, outdated: bool) -> str | None:
    users = list(rule.get("users") or [])
    latest = change_request.latest_reviews
    approved = {uid for uid, review in latest.items() if review.get("status") == "approved"}
    missing = [uid for uid in users if uid not in approved]
    changes_requested = sorted(uid for uid, review in latest.items() if review.get("status") != "approved")
    nodes = (change_request.description or {}).get("nodes") or []
    unmet: dict[str, tuple[bool, str]] = {
        "require_specific_reviewers": (bool(missing), f"needs an approving review from {', '.join(missing)}"),
        "require_one_of_specific_reviewers": (
            not approved & set(users), f"needs an approving review from one of {', '.join(users)}"),
        "require_at_least_one_review": (not approved, "needs at least one approving review"),
        "require_all_reviews_approved": (
            bool(changes_requested), f"reviews by {', '.join(changes_requested)} request changes"),
        "require_up_to_date_change_request": (outdated, "the change request is outdated: update it first"),
        "require_change_request_subject": (
            not change_request.subject.strip(), "the change request needs a subject"),
        "require_change_request_description": (not nodes, "the change request needs a description"),
        "require_agent_review": (True, "needs an agent review, which Bindery cannot give"),
    }
    failed, reason = unmet.get(str(rule.get("rule")), (False, ""))
    return reason if failed else None


def check_merge_rules(space: Space, change_request: ChangeRequest, caller_id: str, *, outdated: bool,
                      org: Organization | None = None) -> None:
    rules = effective_rules(space, org)
    if any(rule.get("rule") == "allow_bypass" and caller_id in (rule.get("users") or []) for rule in rules):
        return
    unmet = [f"{rule.get('rule')}: {reason}" for rule in rules
             if (reason := _unmet(rule, change_request, outdated)) is not None]
    if unmet:
        raise Forbidden("The space's merge rules are not met: " + "; ".join(unmet))
