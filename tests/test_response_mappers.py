"""One hop from a domain result to a response (issue 35): each mapper in bindery.api.wire returns its
response model, and a route returns what a mapper gives. A route that validates a dict into a model again,
or a function module of its own that shapes responses, is the two- or three-hop layout this replaced."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import typing
from pathlib import Path

from pydantic import RootModel

import bindery.api.wire
from bindery.api.responses.base import WireModel

ROOT = Path(__file__).resolve().parents[1]
ROUTES = sorted(ROOT.glob("functions/*/*/routes/*.py"))
# Building a model from a dict (or a listing's dict) in a route: the mapper's job.
REVALIDATION = {"model_validate", "model_validate_json", "model_construct", "to_wire"}


def _revalidations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(ROOT)}:{node.lineno}: .{node.func.attr}()"
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in REVALIDATION]


def test_the_routes_are_found():
    assert len(ROUTES) > 50


def test_no_route_validates_a_response_body_into_its_model():
    found = [hit for path in ROUTES for hit in _revalidations(path)]
    assert found == [], "a route builds its response from a dict: let its mapper in api/wire return the model"


def test_no_function_keeps_a_response_shapes_module_of_its_own():
    # The shapes each function once kept (sites_api/shapes.py, content_api/shown.py…) live in api/wire.
    strays = [str(path.relative_to(ROOT)) for pattern in ("functions/*/*/shapes.py", "functions/*/*/shown.py")
              for path in ROOT.glob(pattern)]
    assert strays == []


def _wire_modules() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(bindery.api.wire.__path__, "bindery.api.wire.")
            if not info.ispkg]


def _is_model(shape: object) -> bool:
    """A response model, or a union of them (a page is one of several models, annotated for pydantic)."""
    if inspect.isclass(shape):
        # A RootModel of them (one page of any type) too, from the response models' package.
        return issubclass(shape, WireModel) or (
            issubclass(shape, RootModel) and shape.__module__.startswith("bindery.api.responses."))
    if typing.get_origin(shape) is typing.Annotated:
        return _is_model(typing.get_args(shape)[0])
    members = typing.get_args(shape)
    return bool(members) and all(_is_model(member) for member in members)


def _return_hint(function: object, module: object) -> object:
    """`function`'s return type, evaluated alone: its parameters may name types imported for type checking
    only (a review's comment shapes are imported on first need, bindery/api/wire/reviews.py)."""
    def probe() -> None: ...
    probe.__annotations__ = {"return": getattr(function, "__annotations__", {}).get("return")}
    return typing.get_type_hints(probe, globalns=vars(module)).get("return")


def test_every_mapper_to_the_wire_returns_its_response_model():
    # api/wire's convention: `*_to_wire` gives a response model, `*_fields` a plain body a model embeds.
    wrong = []
    for name in _wire_modules():
        module = importlib.import_module(name)
        for function_name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ != name or not function_name.endswith("_to_wire"):
                continue
            returned = _return_hint(function, module)
            if not _is_model(returned):
                wrong.append(f"{name}.{function_name} -> {returned}")
    assert wrong == [], "\n".join(wrong)

