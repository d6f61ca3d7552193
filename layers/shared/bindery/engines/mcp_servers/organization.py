"""The organization's MCP server (`POST /v1/mcp`, docs/agents.md "MCP"): an agent works on the docs as the
caller of the API token does, through change requests. Every tool calls the domain function its REST
route calls, with the same typed body, so permissions, validation and history are the REST API's; a
domain error (404, 403, 400) comes back as the tool's error result, its message unchanged.

The server is built per request: its tools close over the caller the authorizer resolved.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from bindery.domain import content_reads, organizations, search
from bindery.domain.access.auth import Caller
from bindery.domain.change_requests import edits, merges, requested_reviewers
from bindery.domain.change_requests import records as change_requests
from bindery.domain.comments import threads
from bindery.domain.comments.targets import TargetRef
from bindery.domain.content_reads import ContentRef
from bindery.domain.spaces import listing as spaces
from bindery.engines.content.tree import Tree
from bindery.engines.mcp_servers.tool_errors import refusals_as_tool_errors
from bindery.requests.change_requests import CreateChangeRequest, RequestReviewers, UpdateContent
from bindery.requests.comments import PostComment

NAME = "Bindery organization"
INSTRUCTIONS = (
    "Work on the organization's documentation as the owner of this API token does. Find a space with "
    "list_organizations, list_spaces and search; read its pages (list_pages, read_page) as GitBook-flavoured "
    "Markdown. To change content, open a change request (create_change_request), edit pages in it from "
    "Markdown (create_page, update_page, move_page, delete_page), then comment, request a review or merge "
    "it where your role allows. Nothing changes the published content until a change request is merged.")
LISTED = 100  # a page of organizations or spaces (`page`: the `next_page` of the one before)


def _page_entry(tree: Tree, entry: Any) -> dict[str, Any]:
    return {"id": entry["id"], "title": entry.get("title") or "", "type": entry["type"],
            "path": tree.path_of(entry["id"]),
            "pages": [_page_entry(tree, child) for child in entry.get("pages") or []]}


def build(caller: Caller) -> MCPServer[Any]:
    """The server as `caller` sees it (the tools are the same for everyone; what they reach is not)."""
    server: MCPServer[Any] = MCPServer(NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    # The tools are `async` so they run on the request's own thread (the SDK sends plain functions to a
    # worker thread); each one blocks on its DynamoDB requests, which is all a Lambda invocation does.
    @server.tool()
    @refusals_as_tool_errors
    async def list_organizations(page: str | None = None) -> dict[str, Any]:
        """The organizations you are a member of (ids, titles, your role), 100 at a time: pass
        `next_page` as `page` for the next ones."""
        found = organizations.list_orgs(caller, LISTED, page)
        return {"items": [{"id": view.org.id, "title": view.org.title, "role": view.role}
                          for view in found.items], "next_page": found.next_cursor}

    @server.tool()
    @refusals_as_tool_errors
    async def list_spaces(organization_id: str, page: str | None = None) -> dict[str, Any]:
        """The spaces of an organization you may see (ids, titles, your role on each), 100 at a time:
        pass `next_page` as `page` for the next ones."""
        found = spaces.list_spaces(caller, organization_id, limit=LISTED, page=page)
        return {"items": [{"id": view.space.id, "title": view.space.title,
                           "visibility": view.space.visibility, "role": view.role} for view in found.items],
                "next_page": found.next_cursor}

    @server.tool()
    @refusals_as_tool_errors
    async def search_content(organization_id: str, query: str) -> list[dict[str, Any]]:
        """Full-text search of the organization's spaces; each hit names its space and page."""
        found = search.search_organization(caller, organization_id, query, limit=LISTED, page=None)
        return [{"space_id": space.space_id, "space_title": space.title,
                 "pages": [{"id": hit.id, "title": hit.title, "path": hit.path,
                            "sections": [section.title for section in hit.sections if section.title]}
                           for hit in space.hits]} for space in found.items]

    @server.tool()
    @refusals_as_tool_errors
    async def list_pages(space_id: str, change_request_id: str | None = None) -> list[dict[str, Any]]:
        """The pages of a space (or of a change request of it), nested as in its table of contents."""
        opened = list_pages_of(space_id, change_request_id)
        return [_page_entry(opened.tree, entry) for entry in opened.tree.pages]

    def list_pages_of(space_id: str, change_request_id: str | None) -> Any:
        ref = ContentRef(space_id, change_request_id=change_request_id)
        return content_reads.list_pages(caller, ref, metadata=False)

    @server.tool()
    @refusals_as_tool_errors
    async def read_page(space_id: str, page_path: str = "", page_id: str | None = None,
                        change_request_id: str | None = None) -> str:
        """A page as GitBook-flavoured Markdown headed by its title, by its path (as in the page's URL;
        "" is the first page) or its id, from the space's current content or from a change request's."""
        ref = ContentRef(space_id, change_request_id=change_request_id)
        if page_id is None and not page_path:
            first = next((entry for entry in list_pages_of(space_id, change_request_id).tree.pages
                          if entry["type"] == "document"), None)
            page_id = first["id"] if first else ""
        # Not evaluated: the expressions and conditions stay as written, for an agent that edits the page.
        read = content_reads.get_page(caller, ref, page_id, path=page_path if page_id is None else None,
                                      fmt="markdown", evaluated=False, metadata=False)
        # Headed by its title, as the page shows it (the REST API's Markdown is the body alone).
        title = read.located.entry.get("title") or ""
        return f"# {title}\n\n{read.markdown}" if read.markdown else f"# {title}\n"

    @server.tool()
    @refusals_as_tool_errors
    async def create_change_request(space_id: str, subject: str = "") -> dict[str, Any]:
        """Open a change request in a space: the edits you make in it stay there until it is merged."""
        view = change_requests.create_change_request(caller, space_id, CreateChangeRequest(subject=subject))
        return _change_request(view.change_request)

    def _edit(space_id: str, change_request_id: str, change: dict[str, Any]) -> dict[str, Any]:
        # `compat=False`: the answer names the pages the edit touched (an inserted page's new id).
        done = edits.update_content(caller, space_id, change_request_id,
                                    UpdateContent.model_validate({"changes": [change]}), compat=False)
        return {**_change_request(done.change_request.change_request), "pages": dict(done.touched)}

    @server.tool()
    @refusals_as_tool_errors
    async def create_page(space_id: str, change_request_id: str, *, title: str, markdown: str,
                          parent_page_id: str | None = None, position: int | None = None) -> dict[str, Any]:
        """Add a page to a change request from Markdown, at the top level or under `parent_page_id`."""
        return _edit(space_id, change_request_id, {
            "operation": "insert_page", "title": title, "document": {"markdown": markdown},
            "into": parent_page_id, "at": position})

    @server.tool()
    @refusals_as_tool_errors
    async def update_page(space_id: str, change_request_id: str, page_id: str, markdown: str | None = None,
                          title: str | None = None) -> dict[str, Any]:
        """Replace a page's content with Markdown and/or change its title, in a change request."""
        change: dict[str, Any] = {"operation": "update_page", "page": page_id, "title": title}
        if markdown is not None:
            change["document"] = {"markdown": markdown}
        return _edit(space_id, change_request_id, change)

    @server.tool()
    @refusals_as_tool_errors
    async def move_page(space_id: str, change_request_id: str, page_id: str, *,
                        parent_page_id: str | None = None, position: int | None = None) -> dict[str, Any]:
        """Move a page under another page (or to the top level) and/or to a position, in a change request."""
        return _edit(space_id, change_request_id, {"operation": "update_page", "page": page_id,
                                                   "into": parent_page_id, "at": position})

    @server.tool()
    @refusals_as_tool_errors
    async def delete_page(space_id: str, change_request_id: str, page_id: str) -> dict[str, Any]:
        """Delete a page (and the pages under it) in a change request."""
        return _edit(space_id, change_request_id, {"operation": "delete_page", "page": page_id})

    @server.tool()
    @refusals_as_tool_errors
    async def comment(space_id: str, change_request_id: str, markdown: str,
                      page_id: str | None = None) -> dict[str, Any]:
        """Comment on a change request (on one of its pages with `page_id`), in Markdown."""
        body = PostComment.model_validate({"page": page_id, "body": {"markdown": markdown}})
        view = threads.post_comment(caller, TargetRef(space_id, change_request_id), body)
        return {"id": view.post.id}

    @server.tool()
    @refusals_as_tool_errors
    async def request_review(space_id: str, change_request_id: str, user_ids: list[str]) -> list[str]:
        """Ask members of the organization to review a change request; the users asked."""
        made = requested_reviewers.request_reviewers(caller, space_id, change_request_id,
                                                     RequestReviewers(users=user_ids))
        return [view.request.user_id for view in made]

    @server.tool()
    @refusals_as_tool_errors
    async def merge_change_request(space_id: str, change_request_id: str) -> dict[str, Any]:
        """Merge a change request into the space's content (it needs the review role on the space)."""
        merged = merges.merge_change_request(caller, space_id, change_request_id)
        return {"result": merged.result, "revision": merged.revision}

    return server


def _change_request(change_request: Any) -> dict[str, Any]:
    return {"id": change_request.id, "number": change_request.number, "status": change_request.status,
            "subject": change_request.subject, "revision": change_request.revision}
