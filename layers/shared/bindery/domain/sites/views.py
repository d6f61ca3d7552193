"""A site's structure as a reader sees it: site spaces with their spaces, sections with their site
spaces, groups with their children, each knowing whether it is a default and where it is published.

Built from one `structure` Query and one BatchGetItem of the spaces. A site space whose space was deleted
or left the organization, or that the reader may not read, is left out (docs/sites.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bindery.domain.access.content import roles_on
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_spaces import SiteSpace
from bindery.store.site_structure import Structure
from bindery.store.sites import Site
from bindery.store.spaces import Space, get_spaces


@dataclass(frozen=True)
class SiteSpaceView:
    """A site space with its space (and the reader's role on it), its site, and whether it is the
    default of its section (or of the root)."""

    site_space: SiteSpace
    space: Space
    role: str | None
    site: Site
    org: Organization
    default: bool
    published_path: str  # below the site's published address ('' for the site's front page)

    @property
    def is_default(self) -> bool:
        return self.default


@dataclass(frozen=True)
class SectionView:
    section: Section
    site: Site
    org: Organization
    default: bool
    site_spaces: list[SiteSpaceView]

    @property
    def published_path(self) -> str:
        return "" if self.default else self.section.path


@dataclass(frozen=True)
class GroupView:
    group: SectionGroup
    children: list[SectionView | GroupView] = field(default_factory=list)

    def sections(self) -> list[SectionView]:
        """Every section under the group, nested ones included, in order."""
        found: list[SectionView] = []
        for child in self.children:
            found += [child] if isinstance(child, SectionView) else child.sections()
        return found


@dataclass(frozen=True)
class SiteViews:
    """Every part of a site the reader may see, by id, and the top level in order."""

    structure: Structure
    site_spaces: dict[str, SiteSpaceView]
    sections: dict[str, SectionView]
    groups: dict[str, GroupView]
    top: list[SectionView | GroupView]  # sections and groups at the site's top level, in order

    def root_site_spaces(self) -> list[SiteSpaceView]:
        root = self.structure.in_section(None)
        return [self.site_spaces[ss.id] for ss in root if ss.id in self.site_spaces]

    def ordered_sections(self) -> list[SectionView]:
        return [self.sections[s.id] for s in self.structure.ordered_sections()]


def readable(member: Member | None, structure: Structure, site_spaces: list[SiteSpace]
             ) -> dict[str, tuple[Space, str | None]]:
    """The spaces of those site spaces that are live in the site's organization, with the member's role
    (None for a reader who is not a member: a visitor of the published site); a member sees only the
    spaces they may read."""
    spaces = get_spaces([ss.space_id for ss in site_spaces])
    live = {space.id: space for space in spaces.values()
            if space.deleted_at is None and space.org_id == structure.site.org_id}
    if member is None:
        return {space_id: (space, None) for space_id, space in live.items()}
    roles = roles_on(member, list(live.values()))
    return {space_id: (space, roles[space_id]) for space_id, space in live.items()
            if roles.get(space_id) is not None}


def site_views(structure: Structure, org: Organization, member: Member | None) -> SiteViews:
    site = structure.site
    spaces = readable(member, structure, structure.site_spaces)
    default_section = structure.default_section()
    site_spaces: dict[str, SiteSpaceView] = {}
    for ss in structure.ordered():
        if ss.space_id not in spaces:
            continue
        default = (structure.default_site_space(ss.section) or ss).id == ss.id
        section = structure.section(ss.section) if ss.section else None
        prefix = section.path if section and section.id != (default_section and default_section.id) else ""
        path = "/".join(part for part in (prefix, "" if default else ss.path) if part)
        space, role = spaces[ss.space_id]
        site_spaces[ss.id] = SiteSpaceView(ss, space, role, site, org, default, path)
    sections = {
        section.id: SectionView(section, site, org, section.id == (default_section and default_section.id),
                                [site_spaces[ss.id] for ss in structure.in_section(section.id)
                                 if ss.id in site_spaces])
        for section in structure.sections
    }
    groups = {group.id: GroupView(group) for group in structure.groups}
    top: list[SectionView | GroupView] = []
    members: list[tuple[str, str, SectionView | GroupView, str | None]] = [
        (s.position, s.id, sections[s.id], s.group if s.group in groups else None)
        for s in structure.sections]
    members += [(g.position, g.id, groups[g.id], g.parent if g.parent in groups else None)
                for g in structure.groups]
    for _, _, view, parent in sorted(members, key=lambda member: (member[0], member[1])):
        (groups[parent].children if parent else top).append(view)
    return SiteViews(structure, site_spaces, sections, groups, top)
