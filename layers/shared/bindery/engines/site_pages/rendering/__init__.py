"""The parts of `bindery.engines.site_pages.document_html`: a stored document (the spec's `Document`) as HTML.

`document_html` is the entry point; `context` holds what one rendering knows (links, anchors taken, the
headings met), `urls` which URLs may reach a page, `inlines` text, marks and inline nodes, `blocks` the
block types, with `code`, `media` and `tables` for the larger ones.
"""
