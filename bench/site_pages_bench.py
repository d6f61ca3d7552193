"""A published page, viewed cold and warm (moto, in process), against the same page read as JSON
through the API (`GET /spaces/{spaceId}/content/page/{pageId}`) in the same run.

    python -m bench.site_pages_bench [--pages 300] [--spaces 5] [--repeat 20]

The site shows one space of `--pages` pages (a tree of groups of 25) whose page under test holds every
kind of block the Markdown converter writes, and `--spaces` - 1 more spaces of one page each as its
other site spaces; the site is public, addressed by organization hostname and basename. Cold: the
process's caches of revisions, trees and documents are emptied before each view (a new execution
environment). Warm: the view repeated. The site's search (`~site/search?q=`) searches every site space.
The page's Markdown (`.md`), llms.txt and llms-full.txt (docs/agents.md) are measured beside it.
Reported: DynamoDB requests of one view, by operation, and median milliseconds, each as a ratio to the
warm JSON read.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.environment import in_process_aws, set_environment  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.store import revisions as revision_store  # noqa: E402
from tests.client import ApiClient  # noqa: E402

PAGE = """A page with every kind of block.

## Install

Run `fluentd --setup` first, then:

```ruby
<match **>
  @type stdout
</match>
```

{% hint style="info" %}
Buffers are flushed every 60 seconds.
{% endhint %}

| option | default |
| --- | --- |
| flush_interval | 60s |
| chunk_limit | 8MB |

{% tabs %}
{% tab title="Linux" %}
Use the package.
{% endtab %}
{% tab title="macOS" %}
Use brew.
{% endtab %}
{% endtabs %}

<details>
<summary>More</summary>

Hidden details.

</details>

### Links

See [the site](https://example.com) and the [next page](page-2.md).
"""


BASELINE = "JSON page read, warm (baseline)"


@dataclass
class View:
    name: str
    requests: dict[str, int]  # DynamoDB requests of one view, by operation
    median_ms: float


@dataclass(frozen=True)
class Seeded:
    path: str  # the published page's path on the readers' API
    search_path: str  # the site's search, for a word on a page of every space
    json_path: str  # the same page on the v1 API
    token: str  # the site's admin's API token


def _space(api: ApiClient, org_id: str | None, token: str, *, title: str, groups: list[dict[str, Any]],
           documents: dict[str, Any]) -> str:
    from bindery.domain.revisions import advance_space, commit_revision
    from bindery.store import spaces as space_store

    space_id = str(api.post(f"/orgs/{org_id}/spaces", token=token, body={"title": title}).json()["id"])
    tree = {"pages": groups, "files": [], "reusableContents": [], "variables": {}}
    space = space_store.get_space(space_id)
    assert space is not None
    revision = commit_revision(space_id, [space.revision] if space.revision else [], tree, documents)
    advance_space(space, space.revision or "", revision)
    return space_id


def seed(api: ApiClient, pages: int, spaces: int = 1) -> Seeded:
    """A site of one space of `pages` pages and `spaces` - 1 of one page, published; the page under
    test is `p1`."""
    from bindery.engines.content.markdown import markdown_to_document

    who = api.org_admin("Bench", "Bench")
    api.patch(f"/orgs/{who.org_id}", token=who.token, body={"hostname": "bench"})
    groups = [{"id": f"g{g}", "type": "group", "title": f"Part {g}", "slug": f"part-{g}",
               "pages": [{"id": f"p{n}", "type": "document", "title": f"Page {n}", "slug": f"page-{n}",
                          "pages": []} for n in range(g * 25, min(pages, (g + 1) * 25))]}
              for g in range((pages + 24) // 25)]
    document = markdown_to_document(PAGE).document
    space_ids = [_space(api, who.org_id, who.token, title="Guide", groups=groups,
                         documents={"p1": document})]
    for n in range(1, spaces):
        page = {"id": "p1", "type": "document", "title": "Changes", "slug": "changes", "pages": []}
        space_ids.append(_space(api, who.org_id, who.token, title=f"Release {n}", groups=[page],
                                documents={"p1": document}))
    site = api.post(f"/orgs/{who.org_id}/sites", token=who.token,
                    body={"title": "Bench Docs", "spaces": space_ids}).json()
    api.patch(f"/orgs/{who.org_id}/sites/{site['id']}", token=who.token, body={"basename": "docs"})
    api.post(f"/orgs/{who.org_id}/sites/{site['id']}/publish", token=who.token)
    return Seeded("/sites/bench/docs/part-0/page-1", "/sites/bench/docs/~site/search?q=buffers+flushed",
                  f"/v1/spaces/{space_ids[0]}/content/page/p1", who.token)


def _viewing(api: ApiClient, path: str, *, cold: bool) -> Any:
    headers = {"Host": "127.0.0.1:3000"}

    def view() -> None:
        if cold:
            revision_store.clear_cache()
        reply = api.gateway.dispatch("GET", path, headers)
        if reply.status != 200:
            raise RuntimeError(f"{path}: {reply.status} {reply.body[:200]!r}")

    return view


def measure(api: ApiClient, pages: int, repeat: int, spaces: int = 1) -> dict[str, View]:
    seeded = seed(api, pages, spaces)

    def json_read() -> None:
        reply = api.gateway.dispatch("GET", seeded.json_path, {"Authorization": f"Bearer {seeded.token}"})
        if reply.status != 200:
            raise RuntimeError(f"{seeded.json_path}: {reply.status}")

    calls = {"page view, cold": _viewing(api, seeded.path, cold=True),
             "page view, warm": _viewing(api, seeded.path, cold=False),
             "markdown page, cold": _viewing(api, seeded.path + ".md", cold=True),
             "markdown page, warm": _viewing(api, seeded.path + ".md", cold=False),
             "llms.txt, warm": _viewing(api, "/sites/bench/docs/llms.txt", cold=False),
             "llms-full.txt, warm": _viewing(api, "/sites/bench/docs/llms-full.txt", cold=False),
             "site search, cold": _viewing(api, seeded.search_path, cold=True),
             "site search, warm": _viewing(api, seeded.search_path, cold=False),
             BASELINE: json_read}
    views: dict[str, View] = {}
    for name, call in calls.items():
        call()  # warm-up: imports, templates, and (warm) the caches
        with counting_requests() as requests:
            call()
        views[name] = View(name, dict(requests), median_ms(call, repeat) if repeat else 0.0)
    return views


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.site_pages_bench",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--spaces", type=int, default=5, help="site spaces the site shows (searched)")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    set_environment()
    with in_process_aws():
        views = measure(ApiClient(), args.pages, args.repeat, args.spaces)
    baseline = views[BASELINE]
    for view in views.values():
        total = sum(view.requests.values())
        ratio = view.median_ms / baseline.median_ms if baseline.median_ms else 0.0
        print(f"{view.name:34} {total:3} requests {view.requests}  {view.median_ms:8.2f} ms  x{ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
