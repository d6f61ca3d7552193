"""A published site as one visitor sees it: the sections, groups and site spaces whose `condition`
holds for the visitor's claims, each with its URL, and which of them a path below the site's root names
(docs/published-sites.md, "Routing").

URLs follow `urls.published` (docs/sites.md): the default section at the site's root, another section
at `/{section path}`; in a section (or at the root of a site without sections) the default site space
at the section's URL, another one at `/{its path}` below it. What is left of the path is a page path of
the site space's current revision. A condition that fails, or cannot be evaluated, hides its part: a
hidden default gives way to the first part shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.expressions import UNKNOWN, ExpressionError, evaluate_expression, truthy
from bindery.store.site_sections import Section
from bindery.store.site_spaces import SiteSpace
from bindery.store.site_structure import Structure
from bindery.store.spaces import Space


def shown(condition: str | None, scope: Mapping[str, Any]) -> bool:
    if not condition:
        return True
    try:
        value = evaluate_expression(condition, scope)
    except (ExpressionError, RecursionError, ArithmeticError, ValueError):
        return False
    return value is not UNKNOWN and truthy(value)


@dataclass(frozen=True)
class SiteSpaceLink:
    site_space: SiteSpace
    space: Space
    url: str
    title: str


@dataclass(frozen=True)
class SectionLink:
    section: Section
    url: str
    variants: list[SiteSpaceLink]  # its site spaces shown, in order (the first is its default)


@dataclass(frozen=True)
class GroupLink:
    title: str
    children: list[SectionLink | GroupLink] = field(default_factory=list)


@dataclass(frozen=True)
class Place:
    """Where a path leads: a section (None on a site without sections), a site space, a page path."""

    section: SectionLink | None
    variant: SiteSpaceLink
    variants: list[SiteSpaceLink]  # the site spaces beside it (its section's, or the root's)
    page_path: str


def _join(*parts: str) -> str:
    return "/".join(part.strip("/") for part in parts if part.strip("/"))


@dataclass
class SiteMap:
    structure: Structure
    spaces: Mapping[str, Space]  # live spaces of the organization the site shows, by id
    base: str  # the site's root URL path
    scope: Mapping[str, Any]  # {"visitor": {"claims": ...}}
    sections: list[SectionLink] = field(default_factory=list)
    top: list[SectionLink | GroupLink] = field(default_factory=list)
    root_variants: list[SiteSpaceLink] = field(default_factory=list)

    def __post_init__(self) -> None:
        structure = self.structure
        default = structure.default_section()
        ordered = [s for s in structure.ordered_sections() if shown(s.condition, self.scope)]
        # A hidden default section gives the root to the first section shown.
        root_section = default if default in ordered else (ordered[0] if ordered else None)
        for section in ordered:
            url = self.url(section.path if section is not root_section else "")
            self.sections.append(SectionLink(section, url, self._variants(section.id, url)))
        self.sections = [s for s in self.sections if s.variants]
        self.top = self._top()
        if not structure.sections:
            self.root_variants = self._variants(None, self.url(""))

    def url(self, path: str) -> str:
        joined = _join(path)
        return f"{self.base}/{joined}" if joined else (self.base or "/")

    def _variants(self, section_id: str | None, section_url: str) -> list[SiteSpaceLink]:
        siblings = [ss for ss in self.structure.in_section(section_id)
                    if ss.space_id in self.spaces and shown(ss.condition, self.scope)]
        default = self.structure.default_site_space(section_id)
        first = default if default in siblings else (siblings[0] if siblings else None)
        links = []
        for ss in ([first] if first else []) + [ss for ss in siblings if ss is not first]:
            url = self.url(_join(section_url[len(self.base):], "" if ss is first else ss.path))
            space = self.spaces[ss.space_id]
            links.append(SiteSpaceLink(ss, space, url, space.title or ss.path))
        return links

    def _top(self) -> list[SectionLink | GroupLink]:
        by_id = {link.section.id: link for link in self.sections}
        groups = {g.id: GroupLink(g.title) for g in self.structure.groups}
        entries: list[tuple[str, str, SectionLink | GroupLink, str | None]] = [
            (link.section.position, link.section.id, link,
             link.section.group if link.section.group in groups else None) for link in by_id.values()]
        entries += [(g.position, g.id, groups[g.id], g.parent if g.parent in groups else None)
                    for g in self.structure.groups]
        top: list[SectionLink | GroupLink] = []
        for _, _, entry, parent in sorted(entries, key=lambda e: (e[0], e[1])):
            (groups[parent].children if parent else top).append(entry)
        return [entry for entry in top if not isinstance(entry, GroupLink) or _has_sections(entry)]

    def place(self, rest: tuple[str, ...]) -> Place | None:
        """The section, site space and page path `rest` names; None when the site shows nothing."""
        parts = list(rest)
        section: SectionLink | None = None
        variants = self.root_variants
        if self.sections:
            root = self.url("")
            named = next((s for s in self.sections
                          if parts and s.url != root and s.url == self.url(parts[0])), None)
            section = named or next((s for s in self.sections if s.url == root), self.sections[0])
            parts = parts[1:] if named else parts
            variants = section.variants
        if not variants:
            return None
        chosen = next((v for v in variants[1:] if parts and v.site_space.path == parts[0]), None)
        parts = parts[1:] if chosen else parts
        return Place(section, chosen or variants[0], variants, "/".join(parts))

    def variant_for_space(self, space_id: str) -> SiteSpaceLink | None:
        """Where the site shows a space (its first site space shown), for links between spaces."""
        every = [v for s in self.sections for v in s.variants] + self.root_variants
        return next((v for v in every if v.space.id == space_id), None)


def _has_sections(group: GroupLink) -> bool:
    return any(isinstance(c, SectionLink) or _has_sections(c) for c in group.children)
