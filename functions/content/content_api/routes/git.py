"""Git Sync of a space: start an import or an export (importGitRepository, exportToGitRepository: 204,
the run's URL in `Location`), follow the runs (a Bindery extension), read the Git info (getSpaceGitInfo)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.git_sync import GitSyncRun, GitSyncRunList
from bindery.api.responses.spaces import GitSyncState
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.git_sync import git_info_to_wire, run_location, run_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.git_sync import operations as domain
from bindery.requests.git_sync import ExportToGitRepository, ImportGitRepository
from bindery.store.git_runs import GitRun

router = Router()


def _started(run: GitRun) -> Response[str]:
    return Response(status_code=204, body="", headers={"Location": run_location(run.space_id, run.id)})


@router.post("/spaces/<spaceId>/git/import", status_code=204)
def import_git_repository(
    spaceId: str, who: Who,
    body: Annotated[ImportGitRepository, Body()],
) -> Response[str]:
    return _started(domain.start_run(who, spaceId, body))


@router.post("/spaces/<spaceId>/git/export", status_code=204)
def export_to_git_repository(
    spaceId: str, who: Who,
    body: Annotated[ExportToGitRepository, Body()],
) -> Response[str]:
    return _started(domain.start_run(who, spaceId, body))


@router.get("/spaces/<spaceId>/git/info")
def get_space_git_info(spaceId: str, who: Who) -> GitSyncState:
    return git_info_to_wire(domain.get_git_info(who, spaceId))


@router.get("/spaces/<spaceId>/git/runs")
def list_git_runs(
    spaceId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> GitSyncRunList:
    found = domain.list_runs(who, spaceId, limit=page_limit(limit), page=page)
    return list_page(GitSyncRunList, found, run_to_wire)


@router.get("/spaces/<spaceId>/git/runs/<runId>")
def get_git_run(spaceId: str, runId: str, who: Who) -> GitSyncRun:
    return run_to_wire(domain.get_run(who, spaceId, runId))
