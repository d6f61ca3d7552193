"""…/commenters: the members who commented on a space or a change request, each once."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.auth import Caller
from bindery.dependencies import caller, page_limit
from bindery.domain import commenters as domain
from bindery.domain.comment_targets import TargetRef
from bindery.pagination import MAX_LIMIT
from comments_api.target import comment_target

router = Router()


@router.get("")
def list_commenters(
    who: Annotated[Caller, Depends(caller)], target: Annotated[TargetRef, Depends(comment_target)],
    page: Annotated[str | None, Query()] = None,
    limit: Annotated[float | None, Query(ge=0, le=MAX_LIMIT)] = None,
) -> dict[str, Any]:
    return domain.list_commenters(who, target, limit=page_limit(limit), cursor=page)
