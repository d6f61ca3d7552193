"""What an API function builds before its SnapStart snapshot rather than on first requests
(docs/deploy.md, "Cold starts: SnapStart"). Outside SnapStart a function builds these lazily, so that a cold
start pays only for what its first request uses: each route's request and response validation
(Powertools makes a route's `dependant` on its first request, Bindery settles its annotations then) and
each pydantic model (response models and request bodies are `defer_build`: bench/README.md, "Cold
start"). Under SnapStart that would be after every restore, so the before-snapshot hook builds all of
them once, into the snapshot."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from aws_lambda_powertools.event_handler.api_gateway import Route
from pydantic import BaseModel

from bindery.api.route_signatures import settle_annotations


def build(routes: Iterable[Route]) -> None:
    for route in routes:
        settle_annotations(route.func)  # what each route's first request would do (bindery.api.http)
        _ = route.dependant, route.body_field  # Powertools caches both on the route
    for model in deferred_models():
        model.model_rebuild()


def deferred_models() -> Iterator[type[BaseModel]]:
    """Bindery's models imported so far whose validator is not built yet (a generic base such as
    `WireRoot[T]` is built only through its concrete subclasses)."""
    pending, seen = [BaseModel], set()
    while pending:
        model = pending.pop()
        for subclass in model.__subclasses__():
            if subclass not in seen:
                seen.add(subclass)
                pending.append(subclass)
        if (model.__module__.startswith("bindery.") and not model.__pydantic_complete__
                and not model.__pydantic_generic_metadata__["parameters"]):
            yield model
