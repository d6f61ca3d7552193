"""The markup a translator works on (bindery.engines.translation.markup, segments): every block, mark, link,
expression and key of real documents (the fluentd corpus) survives a translation; only prose changes;
a translation that loses, repeats or misnests a tag is refused rather than applied."""

from __future__ import annotations

import copy
import json

import pytest

from bindery.engines.content.markdown import markdown_to_document
from bindery.engines.translation import markup, segments
from bindery.engines.translation.errors import MarkupLost
from tests.api.translator_server import reverse_words, translate_markup
from tests.data_paths import FLUENTD_CORPUS


def leaf(text, *marks):
    return {"object": "leaf", "text": text, "marks": [{"object": "mark", "type": m} for m in marks]}


def text(*leaves):
    return {"object": "text", "leaves": list(leaves)}


def link(*nodes, url="https://example.com"):
    return {"object": "inline", "type": "link", "isVoid": False, "key": "lk1",
            "data": {"ref": {"kind": "url", "url": url}}, "nodes": list(nodes)}


EMOJI = {"object": "inline", "type": "emoji", "isVoid": True, "key": "em1", "data": {"code": "1f604"}}
EXPRESSION = {"object": "inline", "type": "expression", "isVoid": True, "key": "ex1",
              "data": {"expression": "space.vars.version"}}
NODES = [text(leaf("Install "), leaf("the agent", "bold"), leaf(" with "),
              leaf("apt-get install td", "code"), leaf(" & read ")),
         link(text(leaf("the "), leaf("guide", "italic"))),
         text(leaf(" for {{ space.vars.version }} < 2 ")), EMOJI, text(leaf(" now.")), EXPRESSION,
         text(leaf(""))]


def test_tags_stand_for_marks_links_and_what_must_not_change():
    encoded = markup.encode(NODES)
    assert encoded.text == ("Install <g1>the agent</g1> with <x2/> &amp; read <g3>the <g4>guide</g4></g3> "
                            "for <x5/> &lt; 2 <x6/> now.<x7/>")
    assert encoded.translatable


def test_an_unchanged_answer_gives_the_same_nodes_back():
    encoded = markup.encode(copy.deepcopy(NODES))
    assert segments.normalize_inlines(markup.decode(encoded, encoded.text)) == \
        segments.normalize_inlines(copy.deepcopy(NODES))


def test_a_translation_moves_tags_and_keeps_what_they_stand_for():
    encoded = markup.encode(NODES)
    answer = ("<x6/> Lisez <g3>le <g4>guide</g4></g3> &amp; installez <g1>l'agent</g1> avec <x2/> "
              "pour <x5/> &lt; 2.<x7/>")
    nodes = markup.decode(encoded, answer)
    flat = json.dumps(nodes)
    assert {"object": "text", "leaves": [leaf("apt-get install td", "code")]} in nodes  # inline code kept
    assert "{{ space.vars.version }}" in flat  # an expression in text kept as written
    assert nodes[0] == EMOJI
    assert EXPRESSION in nodes
    linked = next(node for node in nodes if node.get("type") == "link")
    assert linked["key"] == "lk1"
    assert linked["data"]["ref"]["url"] == "https://example.com"
    assert linked["nodes"][1]["leaves"][0] == leaf("guide", "italic")
    assert any(lf == leaf("l'agent", "bold") for node in nodes for lf in node.get("leaves", []))


@pytest.mark.parametrize("answer", [
    "Installez <g1>l'agent</g1> avec &amp; <g3>le <g4>guide</g4></g3> <x5/> <x6/> <x7/>",  # <x2/> lost
    "Installez <g1>l'agent</g1> <x2/> <x2/> <g3>le <g4>guide</g4></g3> <x5/> <x6/> <x7/>",  # repeated
    "Installez <g1>l'agent <x2/> <g3>le <g4>guide</g1></g4></g3> <x5/> <x6/> <x7/>",  # misnested
    "Installez <g1>l'agent</g1> <x2/> <g3>le <g4>guide</g4> <x5/> <x6/> <x7/>",  # left open
    "Installez <g9>l'agent</g9> <x2/> <g3>le <g4>guide</g4></g3> <x5/> <x6/> <x7/>",  # unknown
])
def test_an_answer_that_lost_the_markup_is_refused(answer):
    with pytest.raises(MarkupLost):
        markup.decode(markup.encode(NODES), answer)


def test_glossary_terms_come_back_as_their_translation_whatever_the_translator_does():
    protect = segments.protect_terms({"Fluentd": "Fluentd", "output plugin": "plugin de sortie"})
    encoded = markup.encode_text("Configure the Output Plugin of fluentd", protect)
    assert encoded.text == "Configure the <x1/> of <x2/>"
    assert markup.decode_text(encoded, "Configurez le <x1/> de <x2/>") == \
        "Configurez le plugin de sortie de Fluentd"


def _leaves(value, prose=True):
    """Every leaf, and whether it is prose (not in a code block or another block kept as written)."""
    if isinstance(value, dict):
        if value.get("object") == "leaf":
            yield value, prose
        prose = prose and value.get("type") not in segments.SKIP_BLOCKS
        for item in value.values():
            yield from _leaves(item, prose)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, prose)


def _shape(value):
    """Everything but text: block and inline types, keys, data, marks."""
    if isinstance(value, dict):
        if value.get("object") == "leaf":
            return ("leaf", json.dumps(value["marks"]))
        return {key: _shape(item) for key, item in value.items() if key not in ("title", "alt")}
    if isinstance(value, list):
        return [_shape(item) for item in value
                if not (isinstance(item, dict) and item.get("object") == "text")]
    return value


def test_every_corpus_page_keeps_its_structure_and_only_its_prose_changes():
    files = sorted(p for p in FLUENTD_CORPUS.rglob("*.md") if ".git" not in p.parts)
    checked = 0
    for path in files:
        document = markdown_to_document(path.read_text()).document
        work = segments.page_work({"id": "p", "type": "document", "title": "T"}, document, markup.no_terms)
        for segment in work.segments:
            segment.apply(translate_markup(segment.text))
        assert work.document is not None
        assert _shape(work.document) == _shape(document), path
        for (before, prose), (after, _) in zip(_leaves(document), _leaves(work.document), strict=True):
            kept = not prose or any(mark["type"] in ("code", "keyboard") for mark in before["marks"])
            expected = before["text"] if kept else reverse_words(before["text"])
            if "{{" not in before["text"]:  # an expression in text is its own leaf piece, kept as written
                assert after["text"] == expected, path
        checked += 1
    assert checked > 150
