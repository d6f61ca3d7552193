"""bench/floor_handlers.py, the floor bench.load measures each operation against: served only when
BINDERY_BENCH_FUNCTIONS names it, making exactly the DynamoDB requests each operation's access pattern
needs (pinned here, as Bindery's own counts are pinned by the API tests), and reading real data."""

from __future__ import annotations

import pytest

from bindery.platform.aws import counting_requests
from local.gateway import Gateway
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space


@pytest.fixture
def floor(api, monkeypatch):
    monkeypatch.setenv("BINDERY_BENCH_FUNCTIONS", "bench.floor_handlers")
    api.gateway = Gateway(cache_authorizer=True)  # as the runner serves them
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Guide")["id"]
    guides = page("g", "Guides", page("p1", "Installing"), page("p2", "Buffers"), kind="group")
    publish(space_id, tree(guides), {"p1": doc("Install the agent first."), "p2": doc("Buffers hold.")})
    return api, ada, space_id


def counted(api, method, path, token):
    api.call(method, path, token=token)  # the authorizer's answer is then cached, as under load
    with counting_requests() as counts:
        reply = api.call(method, path, token=token)
    assert reply.status == 200, reply.body
    return reply.json(), counts


def test_floor_routes_exist_only_when_the_bench_names_its_module(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Guide")["id"]
    assert api.get(f"/floor/spaces/{space_id}", token=ada.token).status == 404  # no such endpoint
    assert not any(route.path.startswith("/floor") for route in api.gateway.template.routes)


def test_floor_reads_make_the_requests_of_their_operations(floor):
    api, ada, space_id = floor
    api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "install"})  # builds the index
    space, counts = counted(api, "GET", f"/floor/spaces/{space_id}", ada.token)
    assert (space["id"], counts) == (space_id, {"GetItem": 1, "BatchGetItem": 1})
    _, counts = counted(api, "GET", f"/floor/spaces/{space_id}/content/page/p1", ada.token)
    assert counts == {"GetItem": 1, "BatchGetItem": 1}
    found, counts = counted(api, "GET", f"/floor/spaces/{space_id}/search?query=install", ada.token)
    # the index pointer was read by the uncounted call and is remembered, as Bindery's search remembers it
    assert (found["indexed"], counts) == (True, {"GetItem": 1, "BatchGetItem": 1})
    api.post(f"/spaces/{space_id}/change-requests", token=ada.token, body={"subject": "Edit"})
    listed, counts = counted(api, "GET", f"/floor/spaces/{space_id}/change-requests", ada.token)
    # and the users the change requests name, in one more BatchGetItem (Bindery shows them)
    assert (listed["count"], counts) == (1, {"GetItem": 1, "BatchGetItem": 2, "Query": 1})


def test_floor_refuses_a_caller_outside_the_organization(floor):
    api, _, space_id = floor
    outsider = api.org_admin("Rita", "Other")
    assert api.get(f"/floor/spaces/{space_id}", token=outsider.token).status == 403


def test_floor_merge_moves_the_space_and_closes_the_change_request(floor):
    api, ada, space_id = floor
    base = f"/spaces/{space_id}/change-requests"
    cr = api.post(base, token=ada.token, body={"subject": "Edit"}).json()
    edit = {"operation": "update_page", "page": "p1", "title": "Installed"}
    assert api.post(f"{base}/{cr['id']}/content", token=ada.token, body={"changes": [edit]}).status < 300
    api.get(f"/floor/spaces/{space_id}", token=ada.token)  # the authorizer's answer cached
    with counting_requests() as counts:
        merged = api.post(f"/floor{base}/{cr['id']}/merge", token=ada.token)
    assert merged.status == 200, merged.body
    # space, membership + organization, the change request, its revision, its tree, the merged tree, the
    # merge revision, the space and change request together, the space's integrations
    assert counts == {"GetItem": 4, "BatchGetItem": 1, "BatchWriteItem": 1, "PutItem": 1,
                      "TransactWriteItems": 1, "Query": 1}
    assert api.get(f"{base}/{cr['id']}", token=ada.token).json()["status"] == "merged"
    assert api.get(f"/spaces/{space_id}/content/page/p1", token=ada.token).json()["title"] == "Installed"
    assert api.post(f"/floor{base}/{cr['id']}/merge", token=ada.token).status == 404  # merged already


def test_a_sizing_call_reports_the_capacity_units_its_requests_consumed(floor, engine):
    api, ada, space_id = floor
    # a consistent GetItem of the space (1 unit) and a consistent BatchGetItem of two small items (1 each),
    # as DynamoDB and DynamoDB Local count them (bench.load's engine); moto halves the batch's reads
    expected = 3.0 if engine == "dynamodb-local" else 2.5
    sized = api.get(f"/floor/spaces/{space_id}", token=ada.token, query={"capacity": "total"}).json()
    assert sized["capacity"] == {"read": expected, "write": 0.0}
    assert "capacity" not in api.get(f"/floor/spaces/{space_id}", token=ada.token).json()


def test_floor_search_reads_a_revision_pointer_once_and_not_one_that_is_missing(floor):
    api, ada, space_id = floor
    path = f"/floor/spaces/{space_id}/search?query=install"
    api.get(f"/floor/spaces/{space_id}", token=ada.token)  # the authorizer's answer cached
    with counting_requests() as counts:
        assert api.call("GET", path, token=ada.token).json()["indexed"] is False  # no index built yet
    assert counts == {"GetItem": 2, "BatchGetItem": 1}
    api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "install"})  # builds the index
    with counting_requests() as counts:  # the missing pointer was not remembered: read again, found
        assert api.call("GET", path, token=ada.token).json()["indexed"] is True
    assert counts == {"GetItem": 2, "BatchGetItem": 1}
    with counting_requests() as counts:
        assert api.call("GET", path, token=ada.token).json()["indexed"] is True
    assert counts == {"GetItem": 1, "BatchGetItem": 1}
