"""…/commenters: the members who commented on a space or a change request, each once."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends

from bindery.api.dependencies import page_limit
from bindery.api.responses.users import OrganizationMember, OrganizationMemberList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.comments import commenter_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.comments import commenters as domain
from bindery.domain.comments.commenters import Commenter
from bindery.domain.comments.targets import TargetRef
from comments_api.target import comment_target

router = Router()


def _wire(commenter: Commenter) -> OrganizationMember:
    return commenter_to_wire(commenter.member, hide_email=commenter.hide_email)


@router.get("/spaces/<spaceId>/commenters")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/commenters")
def list_commenters(
    who: Who, target: Annotated[TargetRef, Depends(comment_target)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> OrganizationMemberList:
    found = domain.list_commenters(who, target, limit=page_limit(limit), cursor=page)
    return list_page(OrganizationMemberList, found, _wire)
