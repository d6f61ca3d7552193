"""API reference pages computed from a specification (`builtin:openapi` computed pages, docs/openapi.md).

A spec's operations are grouped by their first tag (bindery.engines.content.templates.operations_by_tag: the
spec's `tags` order first, untagged ones under "Endpoints"). Each page is written as GitBook Markdown and
converted with the content engine (bindery.engines.content.markdown), so it is a document like any other: per
operation a heading (method and path), its summary and description (CommonMark in the spec, as in
GitBook), an `openapi-operation` block pointing at the operation, and its parameters, request body and
responses. The props are the official `ComputedContentSourceDocumentOpenAPI`'s: `{doc: info, page}`,
`{doc: operations, page: <tag>}`, `{doc: models}`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bindery.engines.content.templates import operations_by_tag

MAX_REF_DEPTH = 20


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _code(value: Any) -> str:
    """Inline code: a backtick in a name cannot end it early."""
    return "`" + str(value).replace("`", "'").replace("\n", " ") + "`"


def _one_line(value: Any) -> str:
    return re.sub(r"\s+", " ", _text(value))


def _resolve(spec: Mapping[str, Any], node: Any) -> Any:
    """An internal `$ref` (`#/components/…`, `#/definitions/…`) followed to what it names; anything else
    (another file's reference, a missing target) as given."""
    for _ in range(MAX_REF_DEPTH):
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return node
        target: Any = spec
        for escaped in ref[2:].split("/"):
            part = escaped.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, Mapping) else None
        if target is None:
            return node
        node = target
    return node


def _schema_label(spec: Mapping[str, Any], schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rstrip("/").rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".json")
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_schema_label(spec, schema.get('items'))}"
    if isinstance(kind, list):
        kind = " or ".join(str(k) for k in kind)
    label = str(kind) if kind else ("object" if "properties" in schema else "any")
    return f"{label} ({schema['format']})" if isinstance(schema.get("format"), str) else label


def _content_labels(spec: Mapping[str, Any], holder: Mapping[str, Any]) -> list[str]:
    """`media type: schema` of an OpenAPI 3 `content`, or the schema of a Swagger 2 body/response."""
    content = holder.get("content")
    if isinstance(content, Mapping):
        return [f"{_code(media)}: {_code(_schema_label(spec, (body or {}).get('schema')))}"
                for media, body in content.items() if isinstance(body, Mapping) or body is None]
    if "schema" in holder:
        return [_code(_schema_label(spec, holder.get("schema")))]
    return []


def _parameters(spec: Mapping[str, Any], path_item: Mapping[str, Any],
                operation: Mapping[str, Any]) -> list[Any]:
    """The path's parameters overridden by the operation's (same name and location)."""
    found: dict[tuple[str, str], Mapping[str, Any]] = {}
    for source in (path_item.get("parameters"), operation.get("parameters")):
        for raw in source or []:
            parameter = _resolve(spec, raw)
            if isinstance(parameter, Mapping):
                found[(str(parameter.get("name")), str(parameter.get("in")))] = parameter
    return list(found.values())


def _operation_markdown(spec: Mapping[str, Any], slug: str, path: str, method: str) -> str:
    path_item = _resolve(spec, spec["paths"][path])
    operation = _resolve(spec, path_item[method])
    lines = [f"## {method.upper()} {path.replace('#', '')}", ""]
    for part in (operation.get("summary"), operation.get("description")):
        if _text(part):
            lines += [_text(part), ""]
    lines += [f'{{% openapi-operation spec="{slug}" path="{path}" method="{method}" %}}',
              f"[OpenAPI {slug}](#)", "{% endopenapi-operation %}", ""]
    parameters = [p for p in _parameters(spec, path_item, operation) if p.get("in") != "body"]
    if parameters:
        lines += ["### Parameters", ""]
        for parameter in parameters:
            required = "required" if parameter.get("required") else "optional"
            kind = _schema_label(spec, parameter.get("schema", parameter))
            about = _one_line(parameter.get("description"))
            lines.append(f"* {_code(parameter.get('name'))} ({parameter.get('in')}, {kind}, {required})"
                         + (f": {about}" if about else ""))
        lines.append("")
    body = _resolve(spec, operation.get("requestBody"))
    bodies = [p for p in _parameters(spec, path_item, operation) if p.get("in") == "body"]
    labels = _content_labels(spec, body) if isinstance(body, Mapping) else \
        [label for p in bodies for label in _content_labels(spec, p)]
    if labels:
        lines += ["### Request body", "", *(f"* {label}" for label in labels), ""]
    responses = operation.get("responses")
    if isinstance(responses, Mapping) and responses:
        lines += ["### Responses", ""]
        for status, raw in responses.items():
            response = _resolve(spec, raw)
            response = response if isinstance(response, Mapping) else {}
            about = _one_line(response.get("description"))
            shapes = ", ".join(_content_labels(spec, response))
            lines.append(f"* {_code(status)}" + (f": {about}" if about else "")
                         + (f" ({shapes})" if shapes else ""))
        lines.append("")
    return "\n".join(lines)


def tags(spec: Mapping[str, Any]) -> list[str]:
    """The operation pages' titles, in order."""
    return list(operations_by_tag(spec))


def schema_names(spec: Mapping[str, Any]) -> list[str]:
    components = spec.get("components")
    found = components.get("schemas") if isinstance(components, Mapping) else spec.get("definitions")
    return [str(name) for name in found] if isinstance(found, Mapping) else []


def page_markdown(spec: Mapping[str, Any], slug: str, props: Mapping[str, Any]) -> str:
    """The Markdown of one computed page (`props` as in ComputedContentSourceDocumentOpenAPI)."""
    doc = props.get("doc")
    if doc == "operations":
        operations = operations_by_tag(spec).get(str(props.get("page")), [])
        if not operations:
            return f"The tag {_code(props.get('page'))} has no operations in the spec's latest version.\n"
        return "\n".join(_operation_markdown(spec, slug, path, method) for path, method in operations)
    if doc == "models":
        names = schema_names(spec)
        if not names:
            return "This spec defines no models.\n"
        return (f'{{% openapi-schemas spec="{slug}" schemas="{",".join(names)}" grouped="true" %}}\n'
                f"[OpenAPI {slug}](#)\n{{% endopenapi-schemas %}}\n")
    found = spec.get("info")
    info: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    lines = []
    title, version = _text(info.get("title")), _text(info.get("version"))
    if title:
        lines += [f"The reference of {title}" + (f", version {version}." if version else "."), ""]
    if _text(info.get("description")):
        lines += [_text(info["description"]), ""]
    lines += ["Operations by tag:", "", *(f"* {tag}" for tag in tags(spec)), ""]
    return "\n".join(lines)


def page_document(spec: Mapping[str, Any], slug: str, props: Mapping[str, Any]) -> dict[str, Any]:
    from bindery.engines.content.markdown import markdown_to_document

    document: dict[str, Any] = markdown_to_document(page_markdown(spec, slug, props)).document
    return document


def notice_document(text: str) -> dict[str, Any]:
    """A one-paragraph document saying why a page has nothing to compute from (never fake content)."""
    leaf = {"object": "leaf", "text": text, "marks": []}
    return {"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "paragraph", "isVoid": False, "data": {},
         "nodes": [{"object": "text", "leaves": [leaf]}]}]}
