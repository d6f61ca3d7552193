"""An id no object can have (over-long, or with characters ids never hold) is a 404 where the request
enters, for every route, before it reaches a DynamoDB key (whose size limits made these 500s)."""

from __future__ import annotations

import pytest

from tests import key_limits
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space

LONG = "x" * 2100
OVER_SORT_KEY = "s" * 1030  # under the partition key's limit, over the sort key's


@pytest.fixture(autouse=True)
def dynamodb_key_limits():
    with key_limits.enforced():
        yield


@pytest.fixture
def where(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    cr = new_cr(api, ada, space_id)
    return ada, space_id, cr["id"]


@pytest.mark.parametrize(("path", "named"), [
    ("/spaces/{LONG}", "space"),
    ("/orgs/{org}/members/{LONG}", "user"),
    ("/orgs/{LONG}", "organization"),
    ("/orgs/{org}/teams/{LONG}", "team"),
    ("/users/{LONG}", "user"),
    ("/collections/{LONG}", "collection"),
    ("/spaces/{space}/comments/{LONG}", "comment"),
    ("/spaces/{space}/change-requests/{LONG}", "change request"),
    ("/spaces/{space}/change-requests/{cr}/comments/{LONG}", "comment"),
    ("/spaces/{space}/git/runs/{LONG}", "run"),
    ("/spaces/{space}/revisions/{LONG}", "revision"),
    ("/spaces/{space}/content/page/{LONG}", "page"),
    ("/spaces/{space}/content/files/{LONG}", "file"),
])
def test_an_impossible_path_id_is_a_404(api, where, path, named):
    ada, space_id, cr_id = where
    target = path.format(LONG=LONG, org=ada.org_id, space=space_id, cr=cr_id)
    assert error(api.get(target, token=ada.token), 404) == f"No matching {named}"


@pytest.mark.parametrize("bad", ["a b", "a%2Fb", "x" * 129, "%C3%A9"])
def test_ids_with_characters_ids_never_hold_are_404s(api, where, bad):
    ada, space_id, _ = where
    reply = api.gateway.dispatch("GET", f"/v1/spaces/{space_id}/comments/{bad}",
                                 {"Authorization": f"Bearer {ada.token}"}, None)
    assert error(reply, 404) == "No matching comment"


def test_writes_with_an_impossible_id_change_nothing(api, where):
    ada, space_id, _ = where
    before = api.get(f"/spaces/{space_id}", token=ada.token).json()
    assert error(api.patch(f"/spaces/{LONG}", token=ada.token, body={"title": "X"}), 404)
    # Deleting what cannot exist is what deleting a missing resource is: a 204 (API.md).
    deleted = api.delete(f"/spaces/{space_id}/comments/{LONG}", token=ada.token)
    assert (deleted.status, deleted.body) == (204, b"")
    assert api.delete(f"/spaces/{LONG}", token=ada.token).status == 204
    # An impossible id above the deleted thing is still a 404.
    assert error(api.delete(f"/spaces/{LONG}/comments/c1", token=ada.token), 404) == "No matching space"
    assert api.get(f"/spaces/{space_id}", token=ada.token).json() == before


def test_a_space_parent_is_at_most_128_characters(api):
    ada = api.org_admin()
    reply = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"parent": "p" * 3000})
    assert error(reply, 400).startswith("Invalid request: parent: String should have at most 128")


@pytest.mark.parametrize("length", [2047, 2100])
def test_an_organization_id_as_long_as_a_partition_key_is_a_404(api, length):
    # The organization comes to the route through a dependency, not as an argument of its function.
    ada = api.org_admin()
    assert error(api.get("/orgs/" + "x" * length, token=ada.token), 404) == "No matching organization"
    assert error(api.get(f"/orgs/{'x' * length}/spaces", token=ada.token), 404) == "No matching organization"


@pytest.mark.parametrize("slug", [OVER_SORT_KEY, LONG, "s" * 101])
def test_an_openapi_slug_no_spec_can_have_is_a_404_to_read_and_a_400_to_create(api, slug):
    ada = api.org_admin()
    specs = f"/orgs/{ada.org_id}/openapi"
    assert error(api.get(f"{specs}/{slug}", token=ada.token), 404) == "No matching OpenAPI specification"
    assert error(api.get(f"{specs}/{slug}/versions", token=ada.token), 404) == \
        "No matching OpenAPI specification"
    assert error(api.patch(f"{specs}/{slug}", token=ada.token, body={"visibility": "public"}), 404) == \
        "No matching OpenAPI specification"
    assert api.delete(f"{specs}/{slug}", token=ada.token).status == 204
    created = api.put(f"{specs}/{slug}", token=ada.token, body={"source": {"text": "{}"}})
    assert error(created, 400).startswith("specSlug: a slug is 1 to 100 lowercase letters")
    assert api.get(specs, token=ada.token).json()["items"] == []


@pytest.mark.parametrize("slug", ["Upper", "two--hyphens", "-lead", "a_b", "é"])
def test_a_put_creates_a_spec_only_under_a_valid_slug(api, slug):
    ada = api.org_admin()
    created = api.put(f"/orgs/{ada.org_id}/openapi/{slug}", token=ada.token, body={"source": {"text": "{}"}})
    assert error(created, 400).startswith("specSlug: ")


@pytest.mark.parametrize(("where", "name"), [
    ("/orgs/{org}/change-requests", "creator"), ("/orgs/{org}/change-requests", "contributor"),
    ("/spaces/{space}/change-requests", "requestedReviewer"),
    ("/spaces/{space}/change-requests", "conversationsIssuesCluster"),
    ("/orgs/{org}/sites", "space"), ("/spaces/{space}/comments", "authors"),
])
def test_a_filter_naming_an_id_longer_than_any_is_a_400_naming_it(api, where, name):
    # Issue 39: these filters reached a key, which DynamoDB refuses over its size limits (a 500).
    ada = api.org_admin()
    path = where.format(org=ada.org_id, space=new_space(api, ada)["id"])
    message = error(api.get(path, token=ada.token, query={name: "q" * 3000}), 400)
    assert message.startswith(f"Invalid request: {name}")
    assert api.get(path, token=ada.token, query={name: "q" * 128}).json()["items"] == []
