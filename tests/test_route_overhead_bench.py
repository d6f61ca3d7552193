"""bench.route_overhead_bench measures GET space, GET page and list change requests against floors of the
same requests: each route makes the requests its access pattern needs, exactly its floor's, and nothing
else (its CPU figures are not tested)."""

from __future__ import annotations

from bench.content import commit_handbook
from bench.route_overhead_bench import measure, operations, seed_change_requests


def test_warm_reads_make_only_the_floors_requests(api):
    ada = api.org_admin()
    created = api.post(f"/orgs/{ada.org_id}/spaces", body={"title": "Handbook"}, token=ada.token)
    fixture = commit_handbook(created.json()["id"], groups=2)
    listed = seed_change_requests(api, ada, 3)
    found = measure(operations(api, ada, fixture, listed), rounds=2, warmup=1)
    # the space, then the membership and the organization in one BatchGetItem (a warm GET page reads no
    # revision, tree or document: they are cached per process)
    access = {"GetItem": 1, "BatchGetItem": 1}
    # the same, the space's open change requests (one Query of GSI1) and the users they name (one more
    # BatchGetItem)
    listing = {"GetItem": 1, "BatchGetItem": 2, "Query": 1}
    assert found["requests"] == {"GET space": access, "GET page": access, "floor": access,
                                 "list change requests": listing, "list floor": listing}
