"""Reading a Git Sync repository (bindery.engines.gitsync.importer): the table of contents, .gitbook.yaml,
page files, links, assets, includes, front matter, and ids kept across re-imports."""

from __future__ import annotations

import pytest

from bindery.engines.content.markdown import document_to_markdown
from bindery.engines.content.tree import Tree, validate
from bindery.engines.gitsync.exporter import export_repository
from bindery.engines.gitsync.importer import InvalidRepository, import_repository
from bindery.engines.gitsync.layout import git_blob
from tests.content import support

PNG = b"\x89PNG\r\n\x1a\n fake"


def repo(**files: str | bytes) -> dict[str, bytes]:
    """Keyword names use `__` for `/` and `_dot_` for a leading dot (`_dot_gitbook__assets__a.png`)."""
    out = {}
    for name, data in files.items():
        path = name.replace("_dot_", ".").replace("__", "/")
        out[path] = data.encode() if isinstance(data, str) else data
    return out


def pages_by_path(tree):
    index = Tree(tree)
    return {index.path_of(pid): index.page(pid).entry for pid in index._pages if index.path_of(pid)}


BASIC = repo(
    README_dot_md="# Welcome\n\nStart [here](guides/install.md#linux).\n",
    SUMMARY_dot_md=(
        "# Table of contents\n\n* [Intro](README.md)\n* [Guides](guides/README.md)\n"
        "  * [Install](guides/install.md)\n  * [Jump](guides/install.md#linux)\n"
        "* [Website](https://example.com)\n\n## Reference\n\n* [API](reference/api.md)\n"
    ),
    guides__README_dot_md="# Guides\n\nSee [install](install.md) and [the API](../reference/api.md).\n",
    guides__install_dot_md=(
        "---\ndescription: How to install\nhidden: true\n"
        "layout:\n  width: wide\n  title:\n    visible: false\n"
        "---\n\n# Install it\n\n## Linux\n\n![Shot](<../.gitbook/assets/shot 1.png>)\n"
    ),
    reference__api_dot_md=(
        "# API\n\n{% include \"../.gitbook/includes/note.md\" %}\n\n[back](../guides/) and [home](../)\n"
    ),
    _dot_gitbook__assets__shot_1_dot_png=PNG,  # "shot 1.png" below
    _dot_gitbook__includes__note_dot_md="---\ntitle: A note\n---\n\nReusable **text**.\n",
)
BASIC[".gitbook/assets/shot 1.png"] = BASIC.pop(".gitbook/assets/shot_1.png")


def test_summary_builds_the_page_tree():
    imported = import_repository(BASIC)
    validate(imported.tree, new_files=imported.files)
    pages = pages_by_path(imported.tree)
    assert list(pages) == ["readme", "guides", "guides/install", "reference", "reference/api"]
    assert [p["type"] for p in imported.tree["pages"]] == ["document", "document", "link", "group"]
    assert pages["readme"]["title"] == "Intro"  # the SUMMARY's title, not the file's `# Welcome`
    assert pages["guides/install"]["title"] == "Install"
    assert pages["guides/install"]["git"] == {"oid": git_blob("", BASIC["guides/install.md"])["oid"],
                                              "path": "guides/install.md"}
    website = imported.tree["pages"][2]
    assert (website["title"], website["target"]) == ("Website", {"kind": "url", "url": "https://example.com"})
    jump = pages["guides"]["pages"][1]
    assert jump["type"] == "link"
    assert jump["target"] == {"kind": "anchor", "anchor": "linux", "page": pages["guides/install"]["id"]}
    assert set(imported.documents) == {p["id"] for p in pages.values() if p["type"] == "document"}
    assert imported.warnings == []


def test_title_and_front_matter_leave_the_document():
    imported = import_repository(BASIC)
    install = pages_by_path(imported.tree)["guides/install"]
    assert install["description"] == "How to install"
    assert install["hidden"] is True
    assert install["layout"] == {"width": "wide", "title": False}
    text = document_to_markdown(imported.documents[install["id"]])
    assert text.startswith("## Linux\n")  # neither the front matter nor `# Install it`
    assert support.schema_errors(imported.documents[install["id"]]) == []


def test_links_assets_and_includes_become_references():
    imported = import_repository(BASIC)
    pages = pages_by_path(imported.tree)
    (shot,) = imported.tree["files"]
    assert shot["name"] == "shot 1.png"
    assert shot["contentType"] == "image/png"
    assert shot["git"]["path"] == ".gitbook/assets/shot 1.png"
    assert imported.files == {shot["id"]: PNG}
    (note,) = imported.tree["reusableContents"]
    assert (note["title"], note["git"]["path"]) == ("A note", ".gitbook/includes/note.md")
    assert "Reusable" in str(imported.reusable_documents[note["id"]])
    refs = str(imported.documents[pages["guides"]["id"]])
    assert str({"kind": "page", "page": pages["guides/install"]["id"]}) in refs
    assert str({"kind": "page", "page": pages["reference/api"]["id"]}) in refs
    readme = str(imported.documents[pages["readme"]["id"]])
    assert str({"kind": "anchor", "anchor": "linux", "page": pages["guides/install"]["id"]}) in readme
    api = str(imported.documents[pages["reference/api"]["id"]])
    assert str({"kind": "reusable-content", "reusableContent": note["id"]}) in api
    assert str({"kind": "page", "page": pages["guides"]["id"]}) in api  # `../guides/` is the folder's README
    assert str({"kind": "page", "page": pages["readme"]["id"]}) in api
    assert str({"kind": "file", "file": shot["id"]}) in str(imported.documents[pages["guides/install"]["id"]])


def test_missing_targets_become_empty_pages_with_a_warning():
    imported = import_repository(repo(
        README_dot_md="# Hi\n\n![gone](.gitbook/assets/gone.png)\n",
        SUMMARY_dot_md="* [Hi](README.md)\n* [Later](later/page.md)\n  * [Child](later/child.md)\n",
        later__child_dot_md="# Child\n",
    ))
    later = pages_by_path(imported.tree)["page"]  # the slug comes from the file name
    assert later["title"] == "Later"
    assert "git" not in later
    assert imported.documents[later["id"]]["nodes"] == []
    assert [p["slug"] for p in later["pages"]] == ["child"]
    assert any("later/page.md" in w and "missing" in w for w in imported.warnings)
    assert any("README.md: .gitbook/assets/gone.png is not a file" in w for w in imported.warnings)
    readme = imported.documents[pages_by_path(imported.tree)["readme"]["id"]]
    assert "'url': '.gitbook/assets/gone.png'" in str(readme)  # kept as a URL reference


def test_a_link_entry_cannot_have_children():
    with pytest.raises(InvalidRepository, match=r"SUMMARY.md: the entry 'Web' .* cannot have child pages"):
        import_repository(repo(SUMMARY_dot_md="* [Web](https://x.org)\n  * [A](a.md)\n", a_dot_md="# A\n"))


def test_an_entry_outside_the_project_is_a_400():
    with pytest.raises(InvalidRepository, match="outside the project directory") as raised:
        import_repository(repo(SUMMARY_dot_md="* [Out](../../etc/passwd.md)\n"))
    assert raised.value.status == 400


def test_absolute_summary_links_are_relative_to_the_project_root_and_export_to_the_same_path():
    # BrighterCommand/Docs: `* [Version Begins](/contents/9/VersionBegin.md)` in the root's SUMMARY.md
    files = repo(
        _dot_gitbook_dot_yaml="root: ./docs/\n",
        docs__README_dot_md="# Home\n",
        docs__SUMMARY_dot_md=("## 9\n\n* [Home](/README.md)\n"
                              "* [Version Begins](/contents/9/VersionBegin.md)\n* [Folder](/contents/9/)\n"),
        docs__contents__9__VersionBegin_dot_md="# Version Begins\n\nHello.\n",
        docs__contents__9__README_dot_md="# Nine\n",
    )
    imported = import_repository(files)
    assert imported.warnings == []
    pages = pages_by_path(imported.tree)
    assert pages["9/versionbegin"]["git"]["path"] == "docs/contents/9/VersionBegin.md"
    assert pages["9/9"]["git"]["path"] == "docs/contents/9/README.md"
    assert imported.documents[pages["9/versionbegin"]["id"]]["nodes"]  # the file's text, not an empty page
    exported = export_repository(Tree(imported.tree), imported.documents, {}, imported.files)
    assert {"docs/contents/9/VersionBegin.md", "docs/contents/9/README.md"} <= set(exported)
    again = import_repository(exported)
    assert pages_by_path(again.tree)["9/versionbegin"]["git"]["path"] == "docs/contents/9/VersionBegin.md"


def test_group_anchors_give_slugs_and_no_title_keeps_html():
    # as GitBook writes them (its own docs, Airstack-xyz/docs):
    # `## Get Started <a href="#getting-started" id="getting-started"></a>`
    files = repo(
        README_dot_md="# Home\n",
        SUMMARY_dot_md=("* [Home](README.md)\n\n"
                        '## Get Started <a href="#getting-started" id="getting-started"></a>\n\n'
                        '* [Quick <mark>start</mark>](quick.md)\n'),
        quick_dot_md="# Quick\n",
    )
    imported = import_repository(files)
    group = imported.tree["pages"][1]
    assert (group["type"], group["title"], group["slug"]) == ("group", "Get Started", "getting-started")
    assert group["pages"][0]["title"] == "Quick start"
    summary = export_repository(Tree(imported.tree), imported.documents, {}, imported.files)["SUMMARY.md"]
    assert b'\n## Get Started <a href="#getting-started" id="getting-started"></a>\n' in summary
    assert import_repository({**files, "SUMMARY.md": summary}).tree["pages"][1]["slug"] == "getting-started"


def test_gitbook_yaml_root_custom_readme_summary_and_redirects():
    files = repo(
        _dot_gitbook_dot_yaml="root: ./docs/\nstructure:\n  readme: start.md\n  summary: toc/TOC.md\n"
        "redirects:\n  old/help: guide.md\n",
        docs__start_dot_md="# Start here\n",
        docs__toc__TOC_dot_md="# Contents\n\n* [Guide](../guide.md)\n",  # relative to the summary file
        docs__guide_dot_md="# Guide\n",
        README_dot_md="# Not the docs\n",
    )
    imported = import_repository(files)
    pages = pages_by_path(imported.tree)
    assert list(pages) == ["start", "guide"]  # the readme first although the summary omits it
    assert pages["start"]["title"] == "Start here"
    assert pages["guide"]["git"]["path"] == "docs/guide.md"
    assert imported.tree["gitSync"] == {"root": "docs/", "summary": "toc/TOC.md",
                                        "redirects": {"old/help": "guide.md"}}
    exported = export_repository(Tree(imported.tree), imported.documents, {}, imported.files)
    assert set(exported) == {".gitbook.yaml", "docs/toc/TOC.md", "docs/start.md", "docs/guide.md"}
    assert b"redirects:\n  old/help: guide.md\n" in exported[".gitbook.yaml"]
    assert b"readme: start.md" in exported[".gitbook.yaml"]


def test_project_directory_and_no_summary_uses_the_folders():
    files = {f"site/{path}": data for path, data in repo(
        README_dot_md="# Home\n",
        b_dot_md="# Bee\n",
        a__README_dot_md="# Folder A\n",
        a__z_dot_md="# Zed\n",
        a__c_dot_md="# See\n",
        d__e_dot_md="# Deep\n",
        _dot_gitbook__assets__x_dot_pdf=b"%PDF",
    ).items()}
    files["other/README.md"] = b"# Another project\n"
    imported = import_repository(files, project_directory="site/")
    pages = pages_by_path(imported.tree)
    assert list(pages) == ["readme", "a", "a/c", "a/z", "b", "d", "d/e"]
    assert [pages[p]["title"] for p in pages] == ["Home", "Folder A", "See", "Zed", "Bee", "d", "Deep"]
    assert pages["a/c"]["git"]["path"] == "a/c.md"  # relative to the project directory
    assert "git" not in pages["d"]  # a folder without README.md: an empty page
    assert [f["name"] for f in imported.tree["files"]] == ["x.pdf"]


def test_previous_tree_keeps_ids_of_pages_and_files_at_the_same_paths():
    first = import_repository(BASIC)
    changed = dict(BASIC)
    changed["guides/install.md"] = b"# Install\n\nNew text.\n"
    changed["SUMMARY.md"] = changed["SUMMARY.md"].replace(b"* [Website]", b"* [New](new.md)\n* [Website]")
    changed["new.md"] = b"# New\n"
    second = import_repository(changed, previous=Tree(first.tree))
    before, after = pages_by_path(first.tree), pages_by_path(second.tree)
    for path, entry in before.items():
        assert after[path]["id"] == entry["id"], path
    assert after["new"]["id"] not in {p["id"] for p in before.values()}
    assert second.tree["files"][0]["id"] == first.tree["files"][0]["id"]
    assert second.tree["reusableContents"][0]["id"] == first.tree["reusableContents"][0]["id"]
    links = [p for p in second.tree["pages"] if p["type"] == "link"]
    assert links[0]["id"] == next(p for p in first.tree["pages"] if p["type"] == "link")["id"]
    assert after["guides/install"]["git"]["oid"] != before["guides/install"]["git"]["oid"]
    without_previous = import_repository(BASIC)
    assert pages_by_path(without_previous.tree)["readme"]["id"] != before["readme"]["id"]


def test_a_file_referenced_outside_the_assets_folder_is_a_file_too():
    imported = import_repository(repo(README_dot_md="# A\n\n![](images/logo.png)\n", images__logo_dot_png=PNG,
                                      images__unused_dot_png=PNG))
    files = [(f["name"], f["git"]["path"]) for f in imported.tree["files"]]
    assert files == [("logo.png", "images/logo.png")]  # the unused image is not
    exported = export_repository(Tree(imported.tree), imported.documents, {}, imported.files)
    assert exported["images/logo.png"] == PNG
    assert b'src="images/logo.png"' in exported["README.md"]
