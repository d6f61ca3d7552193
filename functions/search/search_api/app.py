"""Search function: full-text search in a space or an organization, and link checks."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.http import create_app
from search_api.routes import links, search

app = create_app("search")
app.include_router(search.router)
app.include_router(links.router)


def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
