"""Blocks that arrange other blocks: tabs, steppers, expandables, columns and adaptive `if` blocks, all
without JavaScript (tabs are radio inputs that blocks.css turns into a tab bar; expandables `<details>`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup

from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.media import length
from bindery.engines.site_pages.rendering.nodes import Node, children, data_of, fragment, string

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

VERTICAL_ALIGNMENTS = frozenset({"top", "middle", "bottom"})


def render_tabs(context: RenderContext, node: Node) -> Markup:
    """Each tab: a radio input (the first checked), its label, its panel; the inputs of one tabs block
    share a name, so choosing a tab unchecks the others, with the keyboard too."""
    group = context.unique_id("bd-tabs")
    out = Markup("")
    for number, item in enumerate(children(node), start=1):
        tab_id = context.unique_id(f"{group}-{number}")
        title = string(data_of(item).get("title")) or f"Tab {number}"
        out += Markup('<input{}><label class="bd-tab-label" for="{}">{}</label>'
                      '<div class="bd-tab-panel">{}</div>').format(
            attributes(type="radio", css="bd-tab-input", name=group, id=tab_id, checked=number == 1),
            tab_id, title, context.blocks(item.get("nodes")))
    return Markup('<div class="bd-tabs">{}</div>').format(out)


def render_stepper(context: RenderContext, node: Node) -> Markup:
    steps = Markup("").join(Markup('<li class="bd-step">{}</li>').format(context.blocks(step.get("nodes")))
                            for step in children(node))
    return Markup('<ol class="bd-stepper">{}</ol>').format(steps)


def render_expandable(context: RenderContext, node: Node) -> Markup:
    titles = fragment(node, "expandable-title")
    title = Markup(" ").join(context.inlines(item.get("nodes")) for item in titles)
    return Markup('<details class="bd-expandable"><summary>{}</summary><div class="bd-expandable-body">{}'
                  "</div></details>").format(title, context.blocks(fragment(node, "expandable-body")))


def render_columns(context: RenderContext, node: Node) -> Markup:
    out = Markup("")
    for column in children(node):
        data = data_of(column)
        classes = ["bd-column"]
        _pixels, width_class = length(data.get("width"))
        if width_class:
            classes.append(width_class)
        if data.get("verticalAlignment") in VERTICAL_ALIGNMENTS:
            classes.append(f"bd-valign-{data['verticalAlignment']}")
        body = context.blocks(column.get("nodes"))
        out += Markup('<div class="{}">{}</div>').format(" ".join(classes), body)
    full = " bd-full-width" if data_of(node).get("fullWidth") is True else ""
    return Markup('<div class="bd-columns{}">{}</div>').format(full, out)


def render_if(context: RenderContext, node: Node) -> Markup:
    """The children when the condition holds for this reader (the scope), else nothing: a condition
    that cannot be evaluated hides its content rather than show it to the wrong reader."""
    if not context.condition(data_of(node).get("expression")):
        return Markup("")
    return context.blocks(node.get("nodes"))
