"""Hint styles beyond the spec's four (`tip`, as GitBook's older editor wrote it, `note`, any other): read
as the nearest official style, which every document on the wire carries, and kept by block key
(ParsedPage.hint_styles) so that an export writes the style back as written."""

from __future__ import annotations

import pytest

from bindery.engines.content.markdown import document_to_markdown, markdown_to_document

SPEC_STYLES = {"info", "warning", "danger", "success"}
PAGE = """# Hints

{% hint style="tip" %}
A tip.
{% endhint %}

{% hint style="note" %}
A note.
{% endhint %}

{% hint style="Shiny" %}
Unknown.
{% endhint %}

{% hint style="warning" %}
Careful.
{% endhint %}

* In a list:

  {% hint style="caution" %}
  Nested.
  {% endhint %}
"""


def _hints(node):
    if node.get("type") == "hint":
        yield node
    for child in node.get("nodes", []):
        yield from _hints(child)


@pytest.mark.parametrize(("written", "style"), [
    ("tip", "success"), ("note", "info"), ("Shiny", "info"), ("caution", "warning"), ("error", "danger"),
    ("TIP", "success"), ("danger", "danger"), ("Warning", "warning"),
])
def test_a_style_reads_as_the_nearest_official_one(written, style):
    parsed = markdown_to_document(f'{{% hint style="{written}" %}}\nText.\n{{% endhint %}}\n')
    (hint,) = _hints(parsed.document)
    assert hint["data"] == {"style": style}
    assert parsed.hint_styles == ({hint["key"]: written} if written != style else {})


def test_every_hint_carries_a_spec_style_and_the_export_writes_them_back_unchanged():
    parsed = markdown_to_document(PAGE)
    assert {hint["data"]["style"] for hint in _hints(parsed.document)} <= SPEC_STYLES
    assert sorted(parsed.hint_styles.values()) == ["Shiny", "caution", "note", "tip"]
    text = document_to_markdown(parsed.document, title=parsed.title, hint_styles=parsed.hint_styles)
    assert text == PAGE
    again = markdown_to_document(text)
    assert (again.document, again.hint_styles) == (parsed.document, parsed.hint_styles)


def test_without_the_kept_styles_the_official_ones_are_written():  # as a `format=markdown` read shows it
    parsed = markdown_to_document(PAGE)
    text = document_to_markdown(parsed.document, title=parsed.title)
    assert '{% hint style="success" %}\nA tip.' in text
    assert '"tip"' not in text
    assert '"Shiny"' not in text


def test_a_style_changed_since_the_import_is_written_as_changed():
    parsed = markdown_to_document(PAGE)
    tip = next(_hints(parsed.document))
    tip["data"]["style"] = "danger"
    text = document_to_markdown(parsed.document, title=parsed.title, hint_styles=parsed.hint_styles)
    assert '{% hint style="danger" %}\nA tip.' in text
    assert '{% hint style="note" %}' in text  # the others as written


def test_a_hint_split_around_a_block_it_may_not_hold_keeps_its_style_in_each_part():
    parsed = markdown_to_document(
        '{% hint style="tip" %}\nBefore.\n\n```\ncode\n```\n\nAfter.\n{% endhint %}\n')
    hints = list(_hints(parsed.document))
    assert len(hints) == 2
    assert {parsed.hint_styles[hint["key"]] for hint in hints} == {"tip"}
    text = document_to_markdown(parsed.document, hint_styles=parsed.hint_styles)
    assert text.count('{% hint style="tip" %}') == 2
