"""The SQLite the functions import can do what search needs, and the index and query behave."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import yaml

from bindery.engines.search import index as search_index
from bindery.engines.search import storage
from bindery.engines.search.index import IndexedPage, build, engine_support
from bindery.engines.search.query import SectionHit, search, terms
from bindery.engines.search.text import Section, sections

ROOT = Path(__file__).resolve().parents[2]


def test_the_sqlite_the_functions_import_has_fts5_porter_and_bm25():
    # The module the search code runs on, not a fresh import: a runtime with an older SQLite (the
    # python3.11 Lambda runtime links 3.7.17, without FTS5) fails here rather than in production.
    assert search_index.sqlite3 is sqlite3
    assert engine_support(sqlite3.connect(":memory:")) == [], sqlite3.sqlite_version


def test_the_functions_run_on_a_runtime_whose_sqlite_has_fts5():
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    template = yaml.load((ROOT / "template.yaml").read_text(), Loader=Loader)  # noqa: S506 (safe loader)
    # python3.12 runs on Amazon Linux 2023, whose SQLite (3.40) has FTS5; python3.11 (Amazon Linux 2) has not.
    functions = [resource["Properties"] for resource in template["Resources"].values()
                 if resource["Type"] == "AWS::Serverless::Function"]
    # Each zip function names its runtime (container images run the one of their Dockerfile's FROM).
    zip_functions = [props for props in functions if props.get("PackageType") != "Image"]
    assert {props.get("Runtime") for props in zip_functions} == {"python3.12"}


def _connect(tmp_path, pages):
    data, count = build(pages)
    path = tmp_path / "index.sqlite"
    path.write_bytes(data)
    assert count == len(pages)
    return sqlite3.connect(path)


def _page(page_id, title, *parts, description=""):
    document = {"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": kind, "key": f"k{i}", "data": {},
         "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}
        for i, (kind, text) in enumerate(parts)]}
    return IndexedPage(page_id, title, page_id, description, sections(title, document))


def test_sections_split_at_headings_and_carry_anchors():
    page = _page("p", "Guide", ("paragraph", "Intro text."), ("heading-1", "Install it!"),
                 ("paragraph", "Run make."), ("heading-2", "TLS/SSL setup"), ("paragraph", "Certs."))
    assert page.sections == [Section(None, "Guide", "Intro text."),
                             Section("install-it", "Install it!", "Run make."),
                             Section("tls-ssl-setup", "TLS/SSL setup", "Certs.")]


def test_query_terms_are_quoted_never_fts_syntax():
    quoted = ['"buffer"', '"chunk limit"', '"elastic"*', '"AND"']
    assert terms('buffer "chunk limit" elastic* AND ( "') == quoted
    assert terms("- * ()") == []


def test_ranking_stemming_phrases_prefixes_and_fallback(tmp_path):
    connection = _connect(tmp_path, [
        _page("a", "Buffers", ("paragraph", "Buffering chunks before they are flushed."),
              ("heading-1", "Chunk limit"), ("paragraph", "The chunk limit size caps a chunk.")),
        _page("b", "Outputs", ("paragraph", "An output flushes a buffer; limit the chunk rate.")),
        _page("c", "Parsers", ("paragraph", "Regular expressions."), description="Parse logs"),
    ])
    total, hits = search(connection, "buffer", limit=10)
    assert total == 2
    assert hits[0].id == "a"
    assert {h.id for h in search(connection, "flushing", limit=10)[1]} == {"a", "b"}  # stemmed
    assert [h.id for h in search(connection, '"chunk limit"', limit=10)[1]] == ["a"]
    assert {h.id for h in search(connection, "chunk limit", limit=10)[1]} == {"a", "b"}
    assert [h.id for h in search(connection, "pars*", limit=10)[1]] == ["c"]
    assert [h.id for h in search(connection, "logs", limit=10)[1]] == ["c"]  # the description is searched
    assert {h.id for h in search(connection, "regular nothingmatches", limit=10)[1]} == {"c"}  # any term
    chunk = search(connection, '"chunk limit"', limit=10)[1][0]
    assert chunk.sections[0].anchor == "chunk-limit"
    assert "chunk limit" in chunk.sections[0].body.lower()
    assert search(connection, "buffer", limit=1, offset=1)[1][0].id == "b"


def _best_sections(connection, query, page_rowid, best=3):
    """The oracle: the page's matching sections ranked by one plain statement over the whole table."""
    rows = connection.execute("SELECT rowid, anchor FROM fts WHERE fts MATCH ? "
                              "ORDER BY bm25(fts, 3.0, 1.0), rowid", (" AND ".join(terms(query)),)).fetchall()
    return [anchor for rowid, anchor in rows if rowid // search_index.SECTIONS == page_rowid][:best]


def test_each_page_shows_its_best_sections_best_first_and_a_kept_connection_answers_alike(tmp_path):
    # Sections in document order are not in score order: the best comes last. "few" has three sections
    # (all shown), "many" six (the three worst left out: their snippets are never made), "none" one
    # (nothing to order).
    few = _page("few", "Few", ("paragraph", "Flush a buffer now and then, among many other words."),
                ("heading-1", "Other"), ("paragraph", "Once we flush, words and words and words."),
                ("heading-1", "Flush"), ("paragraph", "Flush flush."))
    parts = [(("heading-1", f"Part {n}"), ("paragraph", " ".join(["flush"] * (n + 1) + ["filler"] * 8)))
             for n in range(5)]
    many = _page("many", "Many", ("paragraph", "Nothing here."), *[part for pair in parts for part in pair])
    plain = _connect(tmp_path, [few, many, _page("none", "None", ("paragraph", "No match."))])
    rowids = dict(plain.execute("SELECT id, rowid FROM pages"))
    kept = storage.open_index(tmp_path / "index.sqlite")
    for query in ("flush", "flush words", "flush*", "match"):
        total, hits = search(plain, query, limit=10)
        assert total == len(hits) > 0
        for hit in hits:
            best = _best_sections(plain, query, rowids[hit.id])
            assert [s.anchor for s in hit.sections] == best, (query, hit.id)
            assert all(query[:5] in s.body.lower() for s in hit.sections)
        # The connection the function keeps remembers pages it showed: a cold and a warm query answer as
        # a plain connection, for every page of results.
        for limit, offset in ((10, 0), (1, 0), (1, 1), (1, 2)):
            expected = search(plain, query, limit=limit, offset=offset)
            assert search(kept, query, limit=limit, offset=offset) == expected
            assert search(kept, query, limit=limit, offset=offset) == expected
    shown = {hit.id: [s.anchor for s in hit.sections] for hit in search(kept, "flush", limit=10)[1]}
    assert shown == {"few": ["flush", "other", None], "many": ["part-4", "part-3", "part-2"]}
    assert search(kept, "match", limit=10)[1][0].sections == [SectionHit(None, "", "No match.")]


def test_a_sections_body_is_what_snippet_gives_whether_its_text_is_short_or_long(tmp_path):
    # Texts of up to SNIPPET_TOKENS tokens are shown whole without snippet() (query.SNIPPET): the answer
    # must be snippet()'s on both sides of that size, for texts with leading and trailing punctuation,
    # non-ASCII words, one matched by its heading alone, and an empty one.
    words = ["flush,", "élan", "日本語", "naïve", "x"]  # a token each

    def text(size, pad=""):
        return pad + " ".join(words[i % len(words)] for i in range(size)) + pad

    bodies = [text(0), text(1), text(23, " — "), text(24), text(24, "… "), text(25), text(25, "  "),
              text(40), "Nothing to see." + " more" * 30]
    pages = [IndexedPage(f"p{n}", f"Page {n}", f"p{n}", "", [Section(None, "", body)])
             for n, body in enumerate(bodies)]
    pages.append(IndexedPage("h", "Heading", "h", "", [Section(None, "", "Intro."),
                                                       Section("f", "Flush", text(30))]))
    pages.append(IndexedPage("m", "Many", "m", "", [Section(f"s{n}", f"Flush {n}", text(20 + n))
                                                    for n in range(6)]))
    plain = _connect(tmp_path, pages)
    rowids = dict(plain.execute("SELECT id, rowid FROM pages"))
    shown = set()
    for query in ("flush", "élan", "nothing", "flush see"):
        rows = plain.execute("SELECT rowid, anchor, snippet(fts, 1, '', '', '…', 24) FROM fts "
                             "WHERE fts MATCH ?", (" OR ".join(terms(query)),))
        expected = {(rowid // search_index.SECTIONS, anchor): snippet for rowid, anchor, snippet in rows}
        _, hits = search(plain, query, limit=100)
        for hit in hits:
            for section in hit.sections:
                assert section.body == expected[rowids[hit.id], section.anchor], (query, hit.id)
                shown.add(section.body)
    # both sides of the size were shown: texts whole (up to 24 tokens) and cut (from 25)
    assert {text(24), text(24, "… "), text(23, " — ")} <= shown
    assert any(body.endswith("…") for body in shown)
    assert text(25) not in shown


def test_a_kept_connection_shows_one_section_pages_as_a_plain_one_cold_and_warm(tmp_path):
    # Sections of one-section pages shown whole are kept with the connection the function keeps
    # (query._kept_sections): short and long texts (a snippet, which depends on the query), a page
    # matched by its title alone, first shown in either order, must answer as a plain connection.
    long = " ".join(["flush"] + ["filler"] * 30)
    bodies = ["flush now", long, "flush words and buffer", "nothing here", "buffer " + long]
    pages = [IndexedPage(f"p{n}", f"Page {n}" + (" flush" if n == 3 else ""), f"p{n}", "",
                         [Section(None, "", body)]) for n, body in enumerate(bodies)]
    plain = _connect(tmp_path, pages)
    for order in (["flush", "buffer", "filler", "now"], ["now", "filler", "buffer", "flush"]):
        kept = storage.open_index(tmp_path / "index.sqlite")
        for _ in range(2):
            for query in order:
                for limit, offset in ((10, 0), (1, 0), (2, 1)):
                    expected = search(plain, query, limit=limit, offset=offset)
                    assert search(kept, query, limit=limit, offset=offset) == expected, (query, limit, offset)
        # warm, a page of short sections reads which sections match, not their columns again
        statements: list[str] = []
        kept.set_trace_callback(statements.append)
        assert search(kept, "now", limit=10)[1][0].sections == [SectionHit(None, "", "flush now")]
        assert statements
        assert not [sql for sql in statements if "fts_content" in sql]
