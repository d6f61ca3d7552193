"""bench.search_route_bench measures the search route against a floor of the same requests: both make
the requests the access pattern needs, and nothing else (its CPU figures are not tested)."""

from __future__ import annotations

from bench.content import commit_handbook
from bench.search_route_bench import measure


def test_a_warm_search_makes_only_the_floors_requests(api):
    api.gateway.cache_authorizer = True  # as API Gateway does: the token is not read on every call
    ada = api.org_admin()
    created = api.post(f"/orgs/{ada.org_id}/spaces", body={"title": "Handbook"}, token=ada.token)
    fixture = commit_handbook(created.json()["id"], groups=2)
    found = measure(api, ada, fixture.space_id, query="installation", queries=2, warmup=1)
    # the space, then the membership and the organization in one BatchGetItem; no index pointer (which
    # index the revision has never changes: read once per function)
    assert found["requests"] == found["floor requests"] == {"GetItem": 1, "BatchGetItem": 1}
