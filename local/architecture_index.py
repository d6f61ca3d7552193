"""The operation index of docs/architecture.md: for every operation of the v1 API, its route function, the
domain functions it calls and the store modules those reach, generated from the code.

Each API function of template.yaml is imported as local.openapi imports it (its CodeUri and layers/shared
on sys.path) and its Powertools resolver lists the routes, each with the function registered for it. From
a route function the calls are followed through the syntax tree (ast) and resolved by the function's own
globals: a call into `bindery.domain` names a domain function; the route module's own helpers are
followed to find theirs. From each domain function the same walk goes on through the domain (helpers and
other domain modules) until it reaches `bindery.store` modules, which it names.

    python -m local.architecture_index --write   # rewrite the index in docs/architecture.md
    python -m local.architecture_index --check   # exit 1 if the index there is stale
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from local.openapi import DOCUMENT, api_functions, prepare_imports, resolver, without_credentials
from local.openapi_conventions import HTTP_METHODS
from local.template import ROOT

PAGE = ROOT / "docs" / "architecture.md"
START = "<!-- operation-index:start (python -m local.architecture_index --write) -->"
END = "<!-- operation-index:end -->"
DOMAIN = "bindery.domain"
STORE = "bindery.store"
# How far the walk follows the domain's own helpers before it stops: deep enough for every operation to
# reach its store modules, shallow enough that a listing stays the operation's own.
DOMAIN_DEPTH = 4


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # as docs/openapi.json writes it: /spaces/{spaceId}
    function: str  # the template's function
    route: str  # module:function
    domain: tuple[str, ...]  # module.function
    store: tuple[str, ...]  # module


def _callee(node: ast.expr, scope: dict[str, Any]) -> Any:
    """What a call's function expression names in `scope` (a module's globals), or None."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _callee(node.value, scope)
        if isinstance(owner, (types.ModuleType, type)):
            return getattr(owner, node.attr, None)
    return None


def _imported_in(tree: ast.AST, module: str) -> dict[str, Any]:
    """The names `import` statements inside a function's source bind, resolved."""
    names: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = importlib.import_module("." * node.level + (node.module or ""),
                                             package=module.rpartition(".")[0] or None)
            for alias in node.names:
                found = getattr(source, alias.name, None)
                if found is None:
                    found = importlib.import_module(f"{source.__name__}.{alias.name}")
                names[alias.asname or alias.name] = found
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = importlib.import_module(alias.name if alias.asname else alias.name.split(".")[0])
                if alias.asname:
                    names[alias.asname] = top
                else:
                    importlib.import_module(alias.name)
                    names[alias.name.split(".")[0]] = top
    return names


def _calls(function: Callable[..., Any]) -> Iterator[Any]:
    """What `function`'s body calls, or passes along as a value (`found.map(shape)`), resolved."""
    function = inspect.unwrap(function)
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return
    tree = ast.parse(source)
    # Names a function imports in its own body (a rare case's module, imported on first need to keep
    # cold starts short) resolve like its module's globals, so the index still names that store.
    scope = {**getattr(function, "__globals__", {}), **_imported_in(tree, function.__module__)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield _callee(node.func, scope)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            yield _callee(node, scope)


def _module_of(thing: Any) -> str:
    if isinstance(thing, types.ModuleType):
        return thing.__name__
    return str(getattr(thing, "__module__", "") or "")


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _name(function: Any) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _domain_calls(route: Callable[..., Any]) -> list[Any]:
    """The domain functions `route` calls, itself or through the helpers of its own module."""
    home = route.__module__
    found: list[Any] = []
    seen: set[int] = set()
    pending = [route]
    while pending:
        function = pending.pop()
        for callee in _calls(function):
            if not inspect.isfunction(callee) or id(callee) in seen:
                continue
            seen.add(id(callee))
            module = _module_of(callee)
            if _in(module, DOMAIN):
                found.append(callee)
            elif module == home:
                pending.append(callee)
    return found


@cache
def _store_modules(function: Callable[..., Any], depth: int = DOMAIN_DEPTH) -> frozenset[str]:
    """The store modules a domain function reaches, itself or through other domain functions."""
    reached: set[str] = set()
    for callee in _calls(function):
        module = _module_of(callee)
        if _in(module, STORE):
            reached.add(module)
        elif depth and inspect.isfunction(callee) and _in(module, DOMAIN) and callee is not function:
            reached |= _store_modules(callee, depth - 1)
    return frozenset(reached)


def operations() -> list[Operation]:
    """Every documented route of every API function, sorted by path then method."""
    prepare_imports()
    found: list[Operation] = []
    for function in api_functions():
        app = resolver(function)
        # Powertools keeps no public list of a resolver's routes.
        for route in app._static_routes + app._dynamic_routes:
            if not route.include_in_schema:
                continue
            handler = inspect.unwrap(route.func)
            domain = _domain_calls(handler)
            store = frozenset().union(*(_store_modules(callee) for callee in domain))
            found.append(Operation(
                method=route.method, path=route.openapi_path, function=function.name,
                route=f"{handler.__module__}:{handler.__qualname__}",
                domain=tuple(sorted({_name(callee) for callee in domain})),
                store=tuple(sorted(store))))
    return sorted(found, key=lambda operation: (operation.path, operation.method))


def documented() -> set[tuple[str, str]]:
    """(method, path) of every operation of docs/openapi.json."""
    document = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return {(method.upper(), path) for path, item in document["paths"].items()
            for method in item if method in HTTP_METHODS}


def _short(name: str, package: str) -> str:
    return name.removeprefix(package + ".")


def render(found: list[Operation]) -> str:
    lines = [START, "",
             f"{len(found)} operations. Route: module (under `functions/<function>/`) and function; "
             "domain: under `bindery.domain`; store: modules of `bindery.store`.", "",
             "| Operation | Route | Domain | Store |", "| --- | --- | --- | --- |"]
    for operation in found:
        domain = "<br>".join(f"`{_short(name, DOMAIN)}`" for name in operation.domain) or "—"
        store = ", ".join(f"`{_short(name, STORE)}`" for name in operation.store) or "—"
        lines.append(f"| `{operation.method} {operation.path}` | `{operation.route}` | {domain} | {store} |")
    lines += ["", END]
    return "\n".join(lines)


def with_index(page: str, index: str) -> str:
    if START not in page or END not in page:
        raise ValueError(f"{PAGE.relative_to(ROOT)} has no operation index markers ({START} … {END})")
    before, _, rest = page.partition(START)
    _, _, after = rest.partition(END)
    return before + index + after


def problems(found: list[Operation]) -> list[str]:
    """Operations of docs/openapi.json the index misses, or has that the document does not."""
    indexed = {(operation.method, operation.path) for operation in found}
    wanted = documented()
    return ([f"not indexed: {method} {path}" for method, path in sorted(wanted - indexed)]
            + [f"not in docs/openapi.json: {method} {path}" for method, path in sorted(indexed - wanted)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.architecture_index",
                                     description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"rewrite the index in {PAGE.relative_to(ROOT)}")
    mode.add_argument("--check", action="store_true", help="fail if the index there is stale")
    args = parser.parse_args(argv)
    without_credentials()
    found = operations()
    missing = problems(found)
    if missing:
        print("the routes and docs/openapi.json disagree:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 1
    page = PAGE.read_text(encoding="utf-8")
    expected = with_index(page, render(found))
    relative = PAGE.relative_to(ROOT)
    if page == expected:
        print(f"{relative}: the operation index is up to date")
        return 0
    if args.write:
        PAGE.write_text(expected, encoding="utf-8")
        print(f"{relative}: wrote the operation index ({len(found)} operations)")
        return 0
    print(f"{relative}: the operation index is stale: run `python -m local.architecture_index --write`",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
