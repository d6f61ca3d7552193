"""A page's YAML front matter: description, icon, cover, layout, hidden… as GitBook writes them.

```yaml
---
description: One line shown under the title
icon: book-open
cover: .gitbook/assets/cover.png
coverY: 0
layout:
  width: wide
  title: {visible: true}
  description: {visible: false}
  tableOfContents: {visible: true}
  outline: {visible: true}
  pagination: {visible: true}
hidden: true
noIndex: true
---
```

Every key is kept (unknown ones too) as plain JSON values: dates stay the strings they were written as.
"""

from __future__ import annotations

from typing import Any

import yaml

# The order GitBook writes its keys in; any other key follows, in the order given.
KNOWN_ORDER = (
    "description",
    "icon",
    "cover",
    "coverY",
    "layout",
    "hidden",
    "noIndex",
    "noRobotsIndex",
    "if",
    "metaLinks",
    "vars",
)


class _Loader(yaml.SafeLoader):  # type: ignore[misc] # PyYAML has no type hints
    """YAML without implicit timestamps: `date: 2024-01-01` stays a string, JSON-serializable."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]
    pass


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def parse(raw: str) -> tuple[dict[str, Any], str | None]:
    """The front matter's mapping, and a warning when it is not a valid YAML mapping."""
    try:
        data = yaml.load(raw, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as error:
        return {}, f"the front matter is not valid YAML and was ignored ({str(error).splitlines()[0]})"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, "the front matter is not a mapping and was ignored"
    return {str(key): value for key, value in data.items()}, None


def render(data: dict[str, Any] | None) -> str:
    if not data:
        return ""
    ordered = {key: data[key] for key in KNOWN_ORDER if key in data}
    ordered.update((key, value) for key, value in data.items() if key not in ordered)
    body = yaml.dump(
        ordered,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=2**31 - 1,
    )
    return f"---\n{body}---\n\n"
