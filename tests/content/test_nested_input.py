"""Text nested past the JSON parser's stack, where Bindery reads JSON out of a caller's text (issue 39):
a Markdown tag's argument and an OpenAPI file. Each is read as the rules say, never a RecursionError (a
500 on an import, a worker's crash on a spec)."""

from __future__ import annotations

import pytest

from bindery.engines.content.markdown.tags import read_tag
from bindery.engines.openapi.documents import parse
from bindery.engines.openapi.errors import ProcessingFailed

DEEP = "[" * 100_000


def test_a_tag_argument_nested_past_the_parser_is_read_as_a_word():
    src = "{% hint style=" + DEEP + " %}"
    tag = read_tag(src, 0, len(src))
    assert tag is not None
    assert tag.name == "hint"
    assert tag.attrs["style"] == DEEP


def test_an_openapi_file_nested_past_the_parser_is_a_parse_error():
    with pytest.raises(ProcessingFailed) as failed:
        parse(DEEP.encode(), "spec.json")
    assert failed.value.code == "PARSE_ERROR"
    assert "nested too deeply" in str(failed.value.errors[0].message)
