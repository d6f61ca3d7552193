"""`if` blocks and expressions in evaluated reads (bindery.domain.content_evaluation): what a reader of
`evaluated=true` / `deterministic-only` gets, decided with the same evaluator as expression inlines."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bindery.domain.content_evaluation import evaluate
from bindery.engines.content.expressions import UNKNOWN, ExpressionError, evaluate_expression

GOLDEN_IF = json.loads((Path(__file__).with_name("golden") / "if.json").read_text())["document"]
SPACE = {"version": 3, "beta": True, "edition": "cloud", "limit": 0}
PAGE = {"os": "linux"}


def para(text):
    return {"object": "block", "type": "paragraph", "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}


def if_block(expression, *children, key="k"):
    return {"object": "block", "type": "if", "key": key, "isVoid": False, "data": {"expression": expression},
            "nodes": list(children)}


def doc(*nodes):
    return {"object": "document", "data": {}, "nodes": list(nodes)}


def texts(document):
    return [node["nodes"][0]["leaves"][0]["text"] if node["type"] == "paragraph" else node["type"]
            for node in document["nodes"]]


def run(document, mode):
    return evaluate(document, space_variables=SPACE, page_variables=PAGE, mode=mode)


MODES = ("true", "deterministic-only")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("expression", "shown"), [
    ("space.vars.beta", True),
    ("!space.vars.beta", False),
    ("space.vars.version >= 3", True),
    ("space.vars.version > 3", False),
    ('space.vars.edition == "cloud" && page.vars.os === "linux"', True),
    ("space.vars.edition === 'server' || page.vars.os == 'windows'", False),
    ("space.vars.missing", False),
    ("space.vars.limit", False),  # 0 is falsy
    ("(space.vars.version + 1) % 2 === 0", True),
    ('space.vars["edition"].length == 5', True),
    ("space.vars.beta ? page.vars.os : ''", True),
    ("space.vars.version === '3'", False),  # strict equality keeps types apart
    ("space.vars.version == '3'", True),
])
def test_deterministic_conditions_are_decided_in_both_modes(mode, expression, shown):
    result = run(doc(para("before"), if_block(expression, para("inside"), para("also")), para("after")),
                 mode)
    assert texts(result) == (["before", "inside", "also", "after"] if shown else ["before", "after"])


def test_visitor_conditions_are_kept_by_deterministic_only():
    document = copy.deepcopy(GOLDEN_IF)
    assert run(document, "deterministic-only") == GOLDEN_IF


def test_true_evaluates_visitor_conditions_for_a_visitor_without_claims():
    """The golden page: the block for visitors with attribute A goes, the one for visitors without stays."""
    result = run(GOLDEN_IF, "true")
    assert len(result["nodes"]) == 1
    assert result["nodes"][0]["type"] == "paragraph"
    assert "".join(leaf["text"] for leaf in result["nodes"][0]["nodes"][0]["leaves"]) == \
        "Visible without attribute A."


def test_short_circuits_decide_without_the_visitor():
    document = doc(if_block("!space.vars.beta && visitor.claims.plan == 'pro'", para("never")),
                   if_block("space.vars.beta || visitor.claims.plan", para("always")),
                   if_block("space.vars.beta && visitor.claims.plan", para("depends"), key="kept"))
    result = run(document, "deterministic-only")
    assert [node.get("key", node["type"]) for node in result["nodes"]] == ["paragraph", "kept"]
    assert texts(result)[0] == "always"


def test_nested_if_blocks_and_expressions_inside_are_evaluated():
    inner_expression = {"object": "inline", "type": "expression", "key": "x", "isVoid": True,
                        "data": {"expression": "space.vars.version * 2"}}
    kept_child = {"object": "block", "type": "paragraph", "data": {},
                  "nodes": [inner_expression]}
    document = doc(if_block("visitor.claims.x", if_block("space.vars.beta", kept_child),
                            if_block("false", para("gone")), key="outer"))
    result = run(document, "deterministic-only")
    outer = result["nodes"][0]
    assert outer["key"] == "outer"
    assert outer["data"] == {"expression": "visitor.claims.x"}
    assert outer["nodes"] == [{**kept_child, "nodes": [
        {"object": "text", "key": "x", "leaves": [{"object": "leaf", "text": "6", "marks": []}]}]}]


def test_conditions_that_cannot_be_evaluated():
    """Kept as written by deterministic-only (the reader may know better); false for `true`."""
    document = doc(if_block("space.vars.beta &&", para("broken")),
                   if_block("window.location", para("unknown")))
    assert run(document, "deterministic-only") == document
    assert run(document, "true")["nodes"] == []


def test_if_blocks_in_containers_are_evaluated_too():
    column = {"object": "block", "type": "column", "data": {},
              "nodes": [if_block("page.vars.os == 'linux'", para("Linux only")), para("everyone")]}
    result = run(doc({"object": "block", "type": "columns", "data": {}, "nodes": [column]}), "true")
    assert texts(result["nodes"][0]["nodes"][0]) == ["Linux only", "everyone"]


def test_unchanged_documents_are_returned_as_they_are():
    document = doc(para("plain"), if_block("visitor.claims.a", para("kept")))
    assert run(document, "deterministic-only") is document


def test_the_evaluator():
    scope = {"space": {"vars": {"n": 2, "tags": ["a", "b"]}}, "visitor": UNKNOWN}
    assert evaluate_expression("-space.vars.n + 10 / 4", scope) == 0.5
    assert evaluate_expression("space.vars.tags[1] + space.vars.tags.length", scope) == "b2"
    assert evaluate_expression("space.vars.nothing ?? 'default'", scope) == "default"
    assert evaluate_expression("null == undefined", scope) is True
    assert evaluate_expression("visitor.claims.a == 1", scope) is UNKNOWN
    assert evaluate_expression("false && visitor.claims.a", scope) is False
    for broken in ("a b", "space.vars.", "(1", "1 +", "foo", "'x' @ 1"):
        with pytest.raises(ExpressionError):
            evaluate_expression(broken, scope)
