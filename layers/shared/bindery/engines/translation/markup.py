"""A block's inline content as one string a translator can work on, and back (docs/translations.md).

The inline nodes of a block (text leaves with marks, links, emoji, expressions...) become text with
XML-like tags: `<gN>…</gN>` around a run that has marks or is a link's content (the translator may move
it, and translates what is inside), `<xN/>` for what must come back unchanged (inline code, void inlines,
`{{ … }}`/`{% … %}` expressions written in text, glossary terms). Text is XML-escaped. DeepL (`tag_handling
=xml`), LibreTranslate (`format=html`) and an instructed LLM all keep such tags in place; decoding checks
that every tag came back exactly once, properly nested, and refuses the answer otherwise (MarkupLost),
so a translation never silently drops a mark, a link or a variable.
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.translation.errors import MarkupLost

Node = dict[str, Any]
# Text that is code, not prose, even outside a code mark: Liquid output and tags.
PROTECTED = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
_TOKEN = re.compile(r"<g(\d+)>|</g(\d+)>|<x(\d+)\s*/>|[^<]+|<", re.DOTALL)
ATOM_MARKS = frozenset({"code", "keyboard"})  # a leaf with one of these is kept as written


@dataclass
class Atom:
    """What an `<xN/>` stands for: a node put back as it is, or text (with its marks) put back as text."""

    node: Node | None = None
    text: str = ""
    marks: list[Node] = field(default_factory=list)


@dataclass
class Encoded:
    text: str
    groups: dict[int, Node | list[Node]] = field(default_factory=dict)  # an inline (its shell) or marks
    atoms: dict[int, Atom] = field(default_factory=dict)

    @property
    def translatable(self) -> bool:
        """Whether there is prose to translate (not only tags, spaces and punctuation)."""
        plain = re.sub(r"<[^>]*>", "", self.text)
        return any(ch.isalpha() for ch in html.unescape(plain))


Protect = Callable[[str], list[tuple[str, str | None]]]
"""Splits text into (piece, replacement) pairs: a replacement (a glossary term's translation) makes the
piece an atom that comes back as the replacement; None leaves the piece to the translator."""


def no_terms(text: str) -> list[tuple[str, str | None]]:
    return [(text, None)]


class _Encoder:
    def __init__(self, protect: Protect) -> None:
        self.protect = protect
        self.out = Encoded("")
        self.parts: list[str] = []
        self.next_id = 1

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def atom(self, atom: Atom) -> None:
        number = self._id()
        self.out.atoms[number] = atom
        self.parts.append(f"<x{number}/>")

    def prose(self, text: str, marks: list[Node]) -> None:
        start = 0
        for match in PROTECTED.finditer(text):
            self._terms(text[start:match.start()], marks)
            self.atom(Atom(text=match.group(0), marks=marks))
            start = match.end()
        self._terms(text[start:], marks)

    def _terms(self, text: str, marks: list[Node]) -> None:
        for chunk, replacement in self.protect(text) if text else []:
            if replacement is None:
                self.parts.append(html.escape(chunk, quote=False))
            else:
                self.atom(Atom(text=replacement, marks=marks))

    def leaf(self, leaf: Node) -> None:
        marks = list(leaf.get("marks") or [])
        text = leaf.get("text", "")
        if not text:
            return
        if any(mark.get("type") in ATOM_MARKS for mark in marks):
            self.atom(Atom(text=text, marks=marks))
            return
        if not marks:
            self.prose(text, [])
            return
        number = self._id()
        self.out.groups[number] = marks
        self.parts.append(f"<g{number}>")
        self.prose(text, marks)
        self.parts.append(f"</g{number}>")

    def nodes(self, nodes: list[Node]) -> None:
        for node in nodes:
            if node.get("object") == "text":
                for leaf in node.get("leaves") or []:
                    self.leaf(leaf)
            elif node.get("object") == "inline" and not node.get("isVoid") and "nodes" in node:
                number = self._id()
                self.out.groups[number] = {key: value for key, value in node.items() if key != "nodes"}
                self.parts.append(f"<g{number}>")
                self.nodes(node["nodes"])
                self.parts.append(f"</g{number}>")
            else:
                self.atom(Atom(node=node))


def encode(nodes: list[Node], protect: Protect = no_terms) -> Encoded:
    """The inline `nodes` of a block as tagged text."""
    encoder = _Encoder(protect)
    encoder.nodes(nodes)
    encoder.out.text = "".join(encoder.parts)
    return encoder.out


def encode_text(text: str, protect: Protect = no_terms) -> Encoded:
    """Plain text (a title, an image's alt text) as tagged text: only protected pieces become tags."""
    encoder = _Encoder(protect)
    encoder.prose(text, [])
    encoder.out.text = "".join(encoder.parts)
    return encoder.out


def _leaf(text: str, marks: list[Node]) -> Node:
    return {"object": "leaf", "text": text, "marks": copy.deepcopy(marks)}


class _Decoder:
    def __init__(self, encoded: Encoded, translated: str) -> None:
        self.encoded = encoded
        self.translated = translated
        self.seen_groups: set[int] = set()
        self.seen_atoms: set[int] = set()

    def lost(self, why: str) -> MarkupLost:
        return MarkupLost(f"the translation of {self.encoded.text[:80]!r} {why}")

    def decode(self) -> list[Node]:
        root: list[Node] = []
        containers: list[list[Node]] = [root]
        stack: list[int] = []
        marks: list[list[Node]] = []
        for match in _TOKEN.finditer(self.translated):
            opened, closed, atom = match.group(1), match.group(2), match.group(3)
            current = containers[-1]
            if opened:
                number = self._group(int(opened))
                stack.append(number)
                group = self.encoded.groups[number]
                if isinstance(group, dict):
                    inline: Node = {**copy.deepcopy(group), "nodes": []}
                    current.append(inline)
                    containers.append(inline["nodes"])
                    marks.append([])
                else:
                    marks.append(group)
            elif closed:
                if not stack or stack[-1] != int(closed):
                    raise self.lost(f"closes <g{closed}> out of order")
                number = stack.pop()
                marks.pop()
                if isinstance(self.encoded.groups[number], dict):
                    containers.pop()
            elif atom:
                current.append(self._atom(int(atom)))
            else:
                active = [mark for group_marks in marks for mark in group_marks]
                current.append({"object": "text", "leaves": [_leaf(html.unescape(match.group(0)), active)]})
        if stack:
            raise self.lost(f"leaves <g{stack[-1]}> open")
        missing = (set(self.encoded.groups) - self.seen_groups) | (set(self.encoded.atoms) - self.seen_atoms)
        if missing:
            raise self.lost(f"lost {len(missing)} of its placeholders")
        return root

    def _group(self, number: int) -> int:
        if number not in self.encoded.groups or number in self.seen_groups:
            raise self.lost(f"has an unknown or repeated <g{number}>")
        self.seen_groups.add(number)
        return number

    def _atom(self, number: int) -> Node:
        if number not in self.encoded.atoms or number in self.seen_atoms:
            raise self.lost(f"has an unknown or repeated <x{number}/>")
        self.seen_atoms.add(number)
        atom = self.encoded.atoms[number]
        if atom.node is not None:
            return atom.node
        return {"object": "text", "leaves": [_leaf(atom.text, atom.marks)]}


def keep_edges(source: str, translated: str) -> str:
    """The translation with the source's leading and trailing whitespace (translators trim it)."""
    lead = source[: len(source) - len(source.lstrip())]
    trail = source[len(source.rstrip()):]
    return lead + translated.strip() + trail


def decode(encoded: Encoded, translated: str) -> list[Node]:
    """Inline nodes from a translation of `encoded.text` (not yet normalized); MarkupLost when its tags
    are not exactly the ones sent."""
    return _Decoder(encoded, keep_edges(encoded.text, translated)).decode()


def decode_text(encoded: Encoded, translated: str) -> str:
    """Plain text from a translation of `encode_text`'s output."""
    nodes = _Decoder(encoded, keep_edges(encoded.text, translated)).decode()
    return "".join(leaf["text"] for node in nodes for leaf in node.get("leaves") or [])
