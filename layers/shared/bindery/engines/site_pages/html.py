"""The Jinja2 environment of the site's pages (templates/), autoescaping everything: a document's text
and every setting reach the page escaped; only the renderer's `Markup` is inserted as HTML. Built on the
first page served (Jinja2 is not imported when the function loads)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

STATIC = ("site.css", "blocks.css")


@cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("bindery.engines.site_pages", "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


def render(template: str, **context: Any) -> str:
    return str(_environment().get_template(template).render(**context))


@cache
def static(name: str) -> str:
    """A stylesheet of static/ (only the names in STATIC)."""
    return (resources.files("bindery.engines.site_pages") / "static" / name).read_text(encoding="utf-8")
