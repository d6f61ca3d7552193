"""The store owns every DynamoDB attribute name and expression: no module outside `bindery/store/` and
`bindery/keys/` (in `layers/shared/bindery/` and `functions/`) writes a request's syntax or names an
attribute only items have. import-linter sees imports, not strings: this test reads the strings.

What it refuses, module by module (parsed with `ast`; docstrings are prose and are not read):

1. Expression syntax in a string literal: an update clause (`SET name =`, `REMOVE name`), a condition
   function (`attribute_exists(`, `attribute_not_exists(`, `attribute_type(`, `begins_with(`), a
   `#name` placeholder beside a comparison (`#st <>`), a `:value` placeholder after one (`= :seen`), and a
   literal `#name`/`:value` used as a dict key (an ExpressionAttributeNames/Values entry). An SQL
   statement (the search index is SQLite: `UPDATE pages SET path = ?`) is not an expression.
2. A request parameter that carries an expression (`UpdateExpression`, `ConditionExpression`,
   `KeyConditionExpression`, `FilterExpression`, `ProjectionExpression`, `ExpressionAttributeNames`,
   `ExpressionAttributeValues`), as a string literal or a keyword argument.
3. An import of boto3's expression builders (`boto3.dynamodb.conditions`: `Attr`, `Key`).
4. In a module that imports `bindery.store` or `bindery.keys` (only such a module can be holding an
   item), a string literal equal to a store-only attribute name, outside the `extra=` of a log call
   (log field names are not attributes). Store-only names are exactly:
   the table's key attributes and TTL attribute (`template.yaml`: `AttributeDefinitions`,
   `TimeToLiveSpecification`), the item attribute of every `ItemFields` pair the store declares, and
   every attribute a store module filters on (`Attr("...")`),
   minus the wire field names: a name that is also a property in the wire contract
   (`tests/reference/gitbook-openapi-*.json`), a field (or alias) of a pydantic model in `bindery.api` or
   `bindery.requests`, or a string literal in a module of `bindery/api/`, means the wire field there
   (`updatedAt`, `title`, a site's `search` style), and cannot be told apart from the attribute by
   reading.

`ALLOWED` lists the (module, literal) pairs not cleaned up yet; it only shrinks.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pydantic
import yaml

ROOT = Path(__file__).resolve().parents[1]
BINDERY = ROOT / "layers" / "shared" / "bindery"
OWNERS = ("store", "keys")

# Not cleaned up yet: (path relative to the repository, literal). Remove an entry with its cleanup.
ALLOWED: frozenset[tuple[str, str]] = frozenset()

_CLAUSE = re.compile(r"(?:^|\s)(?:SET\s+#?[A-Za-z_][\w.]*\s*=|REMOVE\s+#?[A-Za-z_]\w*\s*(?:,|$))")
_FUNCTION = re.compile(r"\b(?:attribute_exists|attribute_not_exists|attribute_type|begins_with)\(")
_NAME_PLACEHOLDER = re.compile(r"#[A-Za-z_]\w*\s*(?:=|<>|<=|>=|<|>|\bIN\b|\bBETWEEN\b)")
_VALUE_PLACEHOLDER = re.compile(r"(?:=|<>|<=|>=|<|>|\(|,|\bAND|\bIN)\s*:[A-Za-z_]\w*")
# A statement of SQLite (the search index), not a DynamoDB expression: `UPDATE pages SET path = ?`.
_SQL = re.compile(r"\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|WITH|DROP|ALTER|PRAGMA)\s", re.IGNORECASE)
_PLACEHOLDER_KEY = re.compile(r"^[#:][A-Za-z_]\w*$")
_PARAMETERS = frozenset({"UpdateExpression", "ConditionExpression", "KeyConditionExpression",
                         "FilterExpression", "ProjectionExpression", "ExpressionAttributeNames",
                         "ExpressionAttributeValues"})


def _modules() -> Iterator[Path]:
    for base in (BINDERY, ROOT / "functions"):
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(BINDERY).parts if path.is_relative_to(BINDERY) else ()
            if not (parts and parts[0] in OWNERS):
                yield path


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(tree: ast.AST, *, skip_log_extra: bool = False) -> Iterator[ast.Constant]:
    skipped = _docstrings(tree)
    if skip_log_extra:
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "extra":
                skipped |= {id(inner) for inner in ast.walk(node.value)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node


def _dict_keys(tree: ast.AST) -> set[int]:
    return {id(key) for node in ast.walk(tree) if isinstance(node, ast.Dict) for key in node.keys
            if key is not None}


def _imports_store(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(name.startswith(("bindery.store", "bindery.keys")) for name in names):
            return True
    return False


def _submodules(package: str) -> Iterator[object]:
    base = importlib.import_module(package)
    yield base
    for info in pkgutil.walk_packages(base.__path__, package + "."):
        yield importlib.import_module(info.name)


def _properties(schema: object) -> Iterator[str]:
    if isinstance(schema, dict):
        if isinstance(schema.get("properties"), dict):
            yield from schema["properties"]
        for value in schema.values():
            yield from _properties(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _properties(value)


@cache
def wire_names() -> frozenset[str]:
    names: set[str] = set()
    for contract in (ROOT / "tests" / "reference").glob("gitbook-openapi-*.json"):
        names |= set(_properties(json.loads(contract.read_text())))
    for path in (BINDERY / "api").rglob("*.py"):
        names |= {node.value for node in _strings(ast.parse(path.read_text()))}
    for package in ("bindery.api", "bindery.requests"):
        for module in _submodules(package):
            for value in vars(module).values():
                if inspect.isclass(value) and issubclass(value, pydantic.BaseModel):
                    for name, info in value.model_fields.items():
                        names |= {name, info.alias or name}
    return frozenset(names)


def _table_attributes() -> set[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    template = yaml.load((ROOT / "template.yaml").read_text(), Loader=Loader)  # noqa: S506
    table = next(resource["Properties"] for resource in template["Resources"].values()
                 if resource.get("Type") == "AWS::DynamoDB::Table")
    names = {definition["AttributeName"] for definition in table["AttributeDefinitions"]}
    return names | {table["TimeToLiveSpecification"]["AttributeName"]}


@cache
def store_only_names() -> frozenset[str]:
    from bindery.store.item_fields import ItemFields

    names = _table_attributes()
    for module in _submodules("bindery.store"):
        values = list(vars(module).values())
        values += [inner for value in values if inspect.isclass(value) for inner in vars(value).values()]
        names |= {name for value in values if isinstance(value, ItemFields) for _, name in value.pairs}
    for path in (BINDERY / "store").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Attr"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                names.add(node.args[0].value)
    return frozenset(names - wire_names())


def _expression(node: ast.Constant, dict_keys: set[int]) -> bool:
    text = node.value
    if _SQL.match(text):
        return False
    if id(node) in dict_keys and _PLACEHOLDER_KEY.match(text):
        return True
    return bool(_CLAUSE.search(text) or _FUNCTION.search(text) or _NAME_PLACEHOLDER.search(text)
                or _VALUE_PLACEHOLDER.search(text) or text in _PARAMETERS)


def violations(path: Path) -> list[tuple[int, str, str]]:
    """(line, literal, why) of every string of the module the store should own."""
    tree = ast.parse(path.read_text())
    found = []
    keys = _dict_keys(tree)
    for node in _strings(tree):
        if _expression(node, keys):
            found.append((node.lineno, node.value, "expression parameter" if node.value in _PARAMETERS
                           else "expression syntax"))
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in _PARAMETERS:
            found.append((node.lineno, node.arg, "expression parameter"))
        if isinstance(node, ast.ImportFrom) and node.module == "boto3.dynamodb.conditions":
            found.append((node.lineno, node.module, "expression builder"))
    if _imports_store(tree):
        only = store_only_names()
        found += [(node.lineno, node.value, "store-only attribute")
                  for node in _strings(tree, skip_log_extra=True) if node.value in only]
    return found


def test_no_module_outside_the_store_writes_attributes_or_expressions() -> None:
    found = []
    for path in _modules():
        where = str(path.relative_to(ROOT))
        found += [f"{where}:{line}: {literal!r} ({why})" for line, literal, why in violations(path)
                  if (where, literal) not in ALLOWED]
    assert not found, "the store owns these (add a store function that names what it changes):\n" + \
        "\n".join(sorted(found))


def test_the_allow_list_only_names_what_is_still_there() -> None:
    """An allowed literal that is gone is taken off the list, so that it cannot come back unnoticed."""
    present = {(str(path.relative_to(ROOT)), literal) for path in _modules()
               for _, literal, _ in violations(path)}
    assert not ALLOWED - present, sorted(ALLOWED - present)


def test_the_check_knows_the_store_only_attributes() -> None:
    """The derived set holds what only items hold (keys, counters, filter copies) and no wire name."""
    only = store_only_names()
    assert {"PK", "SK", "GSI1PK", "GSI1SK", "expiresAt", "titleSearch", "orgId"} <= only
    assert not {"updatedAt", "title", "id"} & only


def test_the_check_tells_a_dynamodb_expression_from_an_sql_statement() -> None:
    """DynamoDB's update and condition syntax is refused; SQLite's statements (the search index) are not."""
    refused = ["SET #title = :title", "SET updatedAt = :now", "attribute_not_exists(PK)", "#st <> :closed"]
    allowed = ["UPDATE pages SET path = ? WHERE rowid = ?", "DELETE FROM pages WHERE rowid = ?", "title"]
    assert [text for text in refused if not _expression(ast.Constant(text), set())] == []
    assert [text for text in allowed if _expression(ast.Constant(text), set())] == []
