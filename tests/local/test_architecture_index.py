"""local.architecture_index: docs/architecture.md's index from each operation to its route, domain
functions and store modules is generated from the code and kept up to date."""

from __future__ import annotations

import inspect
import sys

import pytest

from local import architecture_index, openapi


@pytest.fixture(scope="module")
def found() -> list[architecture_index.Operation]:
    return architecture_index.operations()


def _operation(found: list[architecture_index.Operation], method: str,
               path: str) -> architecture_index.Operation:
    [operation] = [op for op in found if (op.method, op.path) == (method, path)]
    return operation


def test_every_operation_of_the_openapi_document_is_indexed_and_nothing_else(found):
    assert architecture_index.problems(found) == []


def test_the_committed_index_is_up_to_date(found):
    page = architecture_index.PAGE.read_text(encoding="utf-8")
    expected = architecture_index.with_index(page, architecture_index.render(found))
    assert page == expected, "docs/architecture.md is stale: run python -m local.architecture_index --write"


def test_an_operation_leads_to_its_route_its_domain_function_and_the_store_it_writes(found):
    # PATCH .../permissions/users/{userId}: the route module's decorator, then access.grants, then grants.
    operation = _operation(found, "PATCH", "/spaces/{spaceId}/permissions/users/{userId}")
    assert operation.route == "spaces_api.routes.permissions:update_user"
    assert operation.domain == ("bindery.domain.access.grants.set_role",)
    assert "bindery.store.grants" in operation.store


def test_a_route_module_helper_is_followed_to_the_domain_function_it_calls(found):
    # list_space_installations calls the module's _list_setups, which calls the domain.
    operation = _operation(found, "GET", "/integrations/{integrationName}/spaces")
    assert operation.route == "integrations_api.routes.content_installs:list_space_installations"
    assert "bindery.domain.integrations.content_installs.list_setups" in operation.domain


def test_a_store_module_imported_inside_a_domain_function_is_indexed(found):
    # Deleting a site reaches the integration events only through an import inside the function (a rare
    # case, imported on first need for the cold start): the index still names that store.
    operation = _operation(found, "DELETE", "/orgs/{organizationId}/sites/{siteId}")
    assert "bindery.store.integration_events" in operation.store
    operation = _operation(found, "POST", "/spaces/{spaceId}/change-requests")
    assert "bindery.store.issue_clusters" in operation.store


def test_a_stale_index_is_refused():
    page = "# Title\n\n" + architecture_index.START + "\nold\n" + architecture_index.END + "\n\nAfter.\n"
    assert architecture_index.with_index(page, "new") == "# Title\n\nnew\n\nAfter.\n"
    with pytest.raises(ValueError, match="no operation index markers"):
        architecture_index.with_index("# Title\n", "new")


def test_every_route_writes_its_full_path_in_its_own_module(found):
    # grep for a path finds its route: no include_router prefix, no route declared by a generated name.
    hidden = []
    for function in openapi.api_functions():
        app = openapi.resolver(function)
        for route in app._static_routes + app._dynamic_routes:
            handler = inspect.unwrap(route.func)
            source = inspect.getsource(sys.modules[handler.__module__])
            if f'"{route.path}"' not in source:
                hidden.append(f"{route.method} {route.path} ({handler.__module__}:{handler.__qualname__})")
    assert hidden == []
