"""ORG/conversations-clusters: the clusters of issues (ordered, filtered by status), and one."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.conversations import ConversationsIssuesCluster, ConversationsIssuesClusterList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.conversations import cluster_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.conversations import reads
from bindery.domain.conversations.reads import ClusterStatus, OrderBy

router = Router()


@router.get("/orgs/<organizationId>/conversations-clusters")
def list_clusters(organizationId: str, who: Who, *,
                  order: Annotated[Literal["asc", "desc"], Query()] = "desc",
                  orderBy: Annotated[OrderBy, Query()] = "updatedAt",
                  status: Annotated[ClusterStatus | None, Query()] = None,
                  page: PageCursor = None, limit: PageLimit = None) -> ConversationsIssuesClusterList:
    found = reads.list_clusters(who, organizationId, order=order, order_by=orderBy, status=status,
                                limit=page_limit(limit), page=page)
    return list_page(ConversationsIssuesClusterList, found, cluster_to_wire)


@router.get("/orgs/<organizationId>/conversations-clusters/<clusterId>")
def get_cluster(organizationId: str, clusterId: str, who: Who) -> ConversationsIssuesCluster:
    return cluster_to_wire(reads.get_cluster(who, organizationId, clusterId))
