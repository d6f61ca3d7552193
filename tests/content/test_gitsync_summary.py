"""SUMMARY.md and .gitbook.yaml, read and written (bindery.engines.gitsync.summary,
bindery.engines.gitsync.layout)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bindery.engines.gitsync import layout
from bindery.engines.gitsync.importer import InvalidRepository
from bindery.engines.gitsync.summary import Entry, Part, parse_summary, render_summary

SUMMARY = """# Table of contents

* [Introduction](README.md)
* [Guides](guides/README.md)
  * [Install \\(Linux\\)](guides/install.md "Sidebar title")
  * Obsolete
    * [Old `cli`](guides/old.md)
* [Blog](https://example.com/blog)

## Reference *API*

1. [Endpoints](<reference/end points.md>)

---

* [After](after.md)
"""


def test_summary_parts_groups_nesting_and_links():
    parts = parse_summary(SUMMARY)
    assert [part.title for part in parts] == [None, "Reference API", None]
    intro, guides, blog = parts[0].entries
    assert (intro.title, intro.target, intro.children) == ("Introduction", "README.md", [])
    assert (blog.title, blog.target) == ("Blog", "https://example.com/blog")
    install, obsolete = guides.children
    assert (install.title, install.target) == ("Install (Linux)", "guides/install.md")
    assert (obsolete.title, obsolete.target) == ("Obsolete", None)
    assert obsolete.children == [Entry("Old cli", "guides/old.md")]
    assert parts[1].entries == [Entry("Endpoints", "reference/end%20points.md")]
    assert parts[2].entries == [Entry("After", "after.md")]


def test_the_first_heading_is_the_title_and_later_ones_are_groups():
    parts = parse_summary("# Summary\n\n# Part one\n\n* [A](a.md)\n\n### Three\n\n* [B](b.md)\n")
    assert [(p.title, [e.title for e in p.entries]) for p in parts] == [("Part one", ["A"]), ("Three", ["B"])]


def test_written_summary_reads_back_the_same():
    parts = parse_summary(SUMMARY)
    text = render_summary(parts)
    assert text.startswith("# Table of contents\n\n* [Introduction](README.md)\n")
    assert "## Reference API\n" in text
    assert "\n---\n" in text  # the ungrouped items after a group
    assert parse_summary(text) == parts
    assert render_summary(parse_summary(text)) == text


TITLE = st.text(st.sampled_from([*"ab Z9", *"\\`*_[]<>&!#|~()-+.=1", "é"]), min_size=1, max_size=12).filter(
    lambda t: " ".join(t.split())
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TITLE, st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_any_title_survives_the_summary(items):
    parts = [Part(None, []), Part("G " + items[0][0], [])]
    for title, linked, grouped in items:
        entry = Entry(" ".join(title.split()), "a b/(x).md" if linked else None)
        parts[grouped].entries.append(entry)
    parts = [p for p in parts if p.entries or p.title]
    expected = [Part(p.title and " ".join(p.title.split()),
                     [Entry(e.title, "a%20b/(x).md" if e.target else None)
                      for e in p.entries]) for p in parts]
    assert parse_summary(render_summary(parts)) == expected


# --- .gitbook.yaml ---------------------------------------------------------------------------------
def test_config_defaults_without_a_file():
    assert layout.read_config(None) == layout.Config("", "README.md", "SUMMARY.md", {})


def test_config_root_structure_and_redirects():
    config = layout.read_config(
        b"root: ./docs/\nstructure:\n  readme: ./product/intro.md\n  summary: product/TOC.md\n"
        b"redirects:\n  old/page: new/page.md\n  /help: support.md\n"
    )
    assert config == layout.Config("docs/", "product/intro.md", "product/TOC.md",
                                   {"old/page": "new/page.md", "help": "support.md"})


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"root: [1]\n", "root must be a path"),
        (b"root: ../elsewhere\n", "outside the project directory"),
        (b"redirects: [a, b]\n", "redirects must map"),
        (b"structure: {readme: [x]}\n", "readme must be a path"),
        (b"root: ./\n  bad: indentation\n :", "not valid YAML"),
    ],
)
def test_invalid_config_is_a_400_naming_the_problem(text, problem):
    with pytest.raises(InvalidRepository, match=problem) as raised:
        layout.read_config(text)
    assert raised.value.status == 400
    assert ".gitbook.yaml" in raised.value.message


def test_slugs_from_paths():
    assert layout.slug_of("getting-started/install.md") == "install"
    assert layout.slug_of("getting-started/README.md") == "getting-started"
    assert layout.slug_of("README.md") == "readme"
    assert layout.slug_of("a/My Page.md") == "my-page"
    assert layout.slug_of("q/update-from-v0.12.md") == "update-from-v0.12"


def test_git_blob_ids_are_gits():
    # `printf 'hello\n' | git hash-object --stdin`
    assert layout.git_blob("a.txt", b"hello\n") == {"oid": "ce013625030ba8dba906f756967f9e9ca394464a",
                                                     "path": "a.txt"}


# --- GitBook's group anchors (issue 41) -----------------------------------------------------------
def test_a_group_heading_with_gitbooks_anchor_is_its_title_and_slug():
    parts = parse_summary(
        "# Table of contents\n\n"
        '## Get Started <a href="#getting-started" id="getting-started"></a>\n\n* [A](a.md)\n\n'
        '## Mobile \\(Android\\) <a id="android"></a>\n\n* [B](b.md)\n\n'
        "## Plain\n\n* [C](c.md)\n"
    )
    assert [(p.title, p.slug) for p in parts] == [
        ("Get Started", "getting-started"), ("Mobile (Android)", "android"), ("Plain", None)]


def test_no_title_carries_inline_html():
    parts = parse_summary('* [Fast <mark>new</mark>](a.md)\n* Bare <a id="x"></a>\n')
    assert [e.title for e in parts[0].entries] == ["Fast new", "Bare"]


def test_a_group_anchor_is_written_as_gitbook_writes_it_and_reads_back():
    parts = [Part("Get Started", [Entry("A", "a.md")], "getting-started"),
             Part("Plain", [Entry("B", "b.md")])]
    text = render_summary(parts)
    assert '\n## Get Started <a href="#getting-started" id="getting-started"></a>\n' in text
    assert "\n## Plain\n" in text
    assert parse_summary(text) == parts
