"""Search and link checks on the fluentd documentation (a real GitBook repository, tests/corpus)."""

from __future__ import annotations

import copy
import re

import pytest

from bindery.domain.revisions import advance_space, commit_revision
from bindery.engines.search import storage
from bindery.engines.search.indexing import ensure_index, ensure_report
from bindery.engines.search.query import search
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from tests.api.spaces.test_spaces import new_space
from tests.search import corpus as fluentd


@pytest.fixture(scope="module")
def loaded():
    return fluentd.load()


@pytest.fixture
def space(api, loaded):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Fluentd")["id"]
    space = space_store.get_space(space_id)
    revision_id = commit_revision(space_id, [space.revision], loaded.tree, loaded.documents,
                                  files=loaded.files)
    advance_space(space, space.revision, revision_id)
    return ada, space_id, revision_id


def _search(space_id, revision_id, query, limit=10):
    pointer = ensure_index(revision_store.get_revision(space_id, revision_id))
    return search(storage.connect(space_id, pointer.digest), query, limit=limit)


def _paths(hits):
    return [hit.path for hit in hits]


def test_known_phrases_find_their_pages_first(space):
    _, space_id, revision_id = space
    expectations = {
        "Life of a Fluentd event": "quickstart-life-of-a-fluentd-event",
        "td-agent v2 vs v3 vs v4": "quickstart-td-agent-v2-vs-v3-vs-v4",
        "in_tail": "input-tail",
        "Config File Syntax (YAML)": "configuration-config-file-yaml",
        "buffer section": "configuration-buffer-section",
        "record_transformer": "filter-record_transformer",
    }
    for query, path in expectations.items():
        total, hits = _search(space_id, revision_id, query)
        assert total > 0, query
        assert hits[0].path == path, (query, _paths(hits))


def test_stemming_phrases_and_prefixes(space):
    _, space_id, revision_id = space
    # Porter stemming: the plural and the gerund find the same pages as the word itself.
    rotated = set(_paths(_search(space_id, revision_id, "rotating logs", 500)[1]))
    assert set(_paths(_search(space_id, revision_id, "rotate log", 500)[1])) == rotated
    assert "deployment-logging" in rotated
    # A phrase is narrower than its words.
    words_total, _ = _search(space_id, revision_id, "buffer chunk limit")
    phrase_total, _phrase_hits = _search(space_id, revision_id, '"chunk limit"')
    assert 0 < phrase_total < words_total
    # A prefix matches every word it starts.
    prefix_total, prefix_hits = _search(space_id, revision_id, "elasticsea*")
    assert prefix_total > 0
    assert "output-elasticsearch" in _paths(prefix_hits)
    # Section bodies show the matched text.
    _, hits = _search(space_id, revision_id, "elasticsearch")
    assert any("elasticsearch" in section.body.lower() for hit in hits for section in hit.sections)


def test_a_deleted_page_is_gone_from_results_after_the_next_revision(space, loaded):
    _, space_id, revision_id = space
    _, hits = _search(space_id, revision_id, "record_transformer")
    assert hits[0].path == "filter-record_transformer"
    tree = copy.deepcopy(revision_store.load_tree(revision_store.get_revision(space_id, revision_id)).value)
    tree["pages"] = [p for p in tree["pages"] if p["slug"] != "filter-record_transformer"]
    current = space_store.get_space(space_id)
    next_revision = commit_revision(space_id, [revision_id], tree)
    advance_space(current, revision_id, next_revision)
    _, hits = _search(space_id, next_revision, "record_transformer", 500)
    assert "filter-record_transformer" not in _paths(hits)
    assert hits  # other pages mention it still
    _, before = _search(space_id, revision_id, "record_transformer")
    assert before[0].path == "filter-record_transformer"  # the old revision's index is unchanged


# --- links: an independent count from the Markdown sources -----------------------------------------------
_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
_TAG_URL = re.compile(r"""(?:src|href|url)=["']([^"']+)["']""")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*(?:<a [^>]*></a>)?\s*$")


def _outside_code(text: str, *, spans: bool = False) -> list[str]:
    """The lines outside fenced code blocks (and, unless `spans`, without inline code spans)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line if spans else re.sub(r"`[^`]*`", "", line))
    return lines


def _slug(heading: str) -> str:
    text = re.sub(r"[*`]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading).lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\s.-]", "", text.replace("/", "-")).strip())


def independent_broken_links() -> set[tuple[str, str]]:
    """(page, target) for every relative link or source in the sources that names no file of the
    repository, or an anchor its page has no heading for: read with regular expressions, not the parser."""
    pages = fluentd.markdown_files()
    known = set(pages) | set(fluentd.asset_files())
    headings = {}
    for path in pages:
        lines = _outside_code((fluentd.CORPUS / path).read_text(), spans=True)
        headings[path] = {_slug(m.group(1)) for line in lines if (m := _HEADING.match(line))}
        headings[path] |= set(re.findall(r'<a [^>]*id="([^"]+)"', "\n".join(lines)))
    broken = set()
    for path in pages:
        text = "\n".join(_outside_code((fluentd.CORPUS / path).read_text()))
        text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
        for target in [*_LINK.findall(text), *_TAG_URL.findall(text)]:
            if re.match(r"^[a-z][a-z0-9+.-]*:|^//", target, re.IGNORECASE):
                continue
            file_part, _, anchor = target.partition("#")
            found = fluentd.resolve(path, file_part, known) if file_part else path
            if found is None:
                broken.add((path, target))
            elif anchor and found in headings and anchor not in headings[found]:
                broken.add((path, f"{found}#{anchor}"))
    return broken


def test_broken_links_match_an_independent_count_from_the_sources(space, loaded):
    _, space_id, revision_id = space
    report = ensure_report(revision_store.get_revision(space_id, revision_id))
    path_of = {page_id: path for path, page_id in loaded.page_ids.items()}
    found = set()
    for target in report["targets"]:
        if target["status"] != "broken":
            continue
        ref = target["ref"]
        described = ref["url"] if ref["kind"] == "url" else f"{path_of[ref['page']]}#{ref['anchor']}" \
            if ref["kind"] == "anchor" else ref.get("file")
        found |= {(path_of[location["page"]], described) for location in target["locations"]}
    expected = independent_broken_links()
    assert found == expected
    assert len(expected) > 5  # the corpus has real broken links: the check is not vacuous
