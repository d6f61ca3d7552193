"""How a domain refusal reaches an agent: the tool's error result with the REST API's status and message
(the SDK shows only a generic text for any other exception, and keeps the rest in the server's log)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from bindery.platform.errors import BinderyError

P = ParamSpec("P")
R = TypeVar("R")


def refusals_as_tool_errors(tool: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(tool)
    async def answered(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await tool(*args, **kwargs)
        except BinderyError as refused:
            raise ToolError(f"{refused.status}: {refused.message}") from refused
        except ValidationError as invalid:  # a tool's arguments made a body the REST route would refuse
            raise ToolError(f"400: {invalid.errors(include_url=False)}") from invalid
    return answered
