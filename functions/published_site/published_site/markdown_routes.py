"""A published site's answers for AI tools (docs/agents.md): `{page URL}.md` (the page as Markdown),
`/llms.txt` and `/llms-full.txt` at the site's root. Each opens the site exactly as its HTML pages do."""

from __future__ import annotations

from bindery.engines.site_pages.llms_txt import LLMS_FULL_TXT, serve_llms_full_txt, serve_llms_txt
from bindery.engines.site_pages.markdown_pages import LLMS_TXT, SUFFIX, serve_markdown
from bindery.engines.site_pages.site_request import Reply, SiteRequest


def route(request: SiteRequest) -> Reply | None:
    """The answer for a path this module holds, or None (another route module's)."""
    last = request.segments[-1] if request.segments else ""
    if last == LLMS_TXT:
        return serve_llms_txt(request)
    if last == LLMS_FULL_TXT:
        return serve_llms_full_txt(request)
    if last.endswith(SUFFIX) and len(last) > len(SUFFIX):
        return serve_markdown(request)
    return None
