"""The benchmark's request counts are the real cost of each operation (its latencies are not tested)."""

from __future__ import annotations

import json

from bench import run


def test_bench_reports_the_dynamodb_requests_of_each_operation(api):
    results = {m.name: m for m in run.measure(api, run.seed(api, orgs=2), iterations=2, warmup=1)}
    assert results[run.BASELINE].requests == {"GetItem": 1}
    # the authorizer's GetItem for the token, then one BatchGetItem for organization + membership
    assert results["GET /orgs/{organizationId}"].requests == {"GetItem": 1, "BatchGetItem": 1}
    assert results["GET /orgs/{organizationId}"].requests_ratio == 2.0
    # token, one GSI1 page of memberships, one BatchGetItem for the organizations (not one per org)
    assert results["GET /orgs"].requests == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}
    assert results["GET /user"].requests == {"GetItem": 2}
    # token, one BatchGetItem for space + membership, the revision item; the tree and the document are
    # immutable and cached by the process after the warm-up, however many pages the space has
    for name in ("GET /spaces/{spaceId}/content/page/{pageId}",
                 "GET /spaces/{spaceId}/content/path/{pagePath}",
                 "GET /spaces/{spaceId}/content/pages (5000 pages)"):
        assert results[name].requests == {"GetItem": 2, "BatchGetItem": 1}, name
    # token, one BatchGetItem for organization + membership, one Query of the site's partition (site,
    # 50 sections, 250 site spaces, settings), one BatchGetItem of the spaces they show and one Query of
    # the integrations installed on the site (its scripts; none here, so no BatchGetItem of them)
    published = "GET /orgs/{organizationId}/sites/{siteId}/published (50 sections x 5 site spaces)"
    assert results[published].requests == {"GetItem": 1, "BatchGetItem": 2, "Query": 2}
    assert all(m.median_us > 0 and m.iterations == 2 for m in results.values())
    json.dumps(run.report(list(results.values()), 2, 1))
