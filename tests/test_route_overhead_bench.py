"""bench.route_overhead_bench measures GET space and GET page against a floor of the same requests: all
three make the requests the access pattern needs, and nothing else (its CPU figures are not tested)."""

from __future__ import annotations

from bench.content import commit_handbook
from bench.route_overhead_bench import measure, operations


def test_warm_reads_make_only_the_floors_requests(api):
    ada = api.org_admin()
    created = api.post(f"/orgs/{ada.org_id}/spaces", body={"title": "Handbook"}, token=ada.token)
    fixture = commit_handbook(created.json()["id"], groups=2)
    found = measure(operations(api, ada, fixture), rounds=2, warmup=1)
    # the space, then the membership and the organization in one BatchGetItem (a warm GET page reads no
    # revision, tree or document: they are cached per process)
    assert found["requests"] == {name: {"GetItem": 1, "BatchGetItem": 1}
                                 for name in ("GET space", "GET page", "floor")}
