"""What each API function imports when Lambda loads it (its cold start): the heavy engines only where a
route needs them on its first call — markdown-it when Markdown is converted, dulwich for Git Sync, fpdf2
for a PDF, PyYAML for a YAML document — never when the handler module loads; and the route modules a
function includes only when a request needs them (bindery.api.http.Resolver.include_later), which must
answer that first request exactly as if they had been imported with the function."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import textwrap
from types import ModuleType

import pytest

from local.gateway import build_event
from local.lambda_runtime import WorkerContext, load_handler
from local.template import ROOT, Route, load
from tests.client import ApiClient
from tests.test_observability import dimensions, invocation_blob, json_logs

HEAVY = ("markdown_it", "mdit_py_plugins", "dulwich", "fpdf", "PIL", "yaml", "emoji", "pygments",
         "numpy", "scipy", "sklearn", "yake")  # the last four: the conversations worker image's
API_FUNCTIONS = sorted(name for name, function in load().functions.items() if function.routes)


# The route modules (and the domain, wire and model modules only they use) each function imports on first
# need: a content read that shows a change request imports neither its reviews nor their comments, nor
# the link shapes that name an organization and a space. And the modules only rare cases of an eager
# route need: a change request that names an issues cluster, a computed (OpenAPI reference) page, a
# document read `?evaluated`, a merge's revision (its change request's shapes), a review with a comment,
# a space's duplicate, a site's deletion. Checking a space's `editMode` needs none of the spaces' domain.
DEFERRED = {
    "ContentFunction": (
        "content_api.routes.links", "content_api.routes.template", "content_api.routes.git",
        "content_api.routes.change_request_content", "content_api.routes.change_request_links",
        "bindery.domain.change_requests.edits", "bindery.domain.git_sync.operations",
        "bindery.domain.templates", "bindery.api.wire.reviews", "bindery.api.wire.comments",
        "bindery.api.wire.change_request_changes", "bindery.api.responses.reviews",
        "bindery.api.responses.comments", "bindery.api.responses.content_locations",
        "bindery.requests.change_requests", "bindery.domain.openapi.reference_pages",
        "bindery.store.openapi_specs", "bindery.store.issue_clusters", "bindery.domain.content_evaluation",
        "bindery.engines.content.expressions", "bindery.api.wire.change_requests",
        "bindery.domain.spaces.records", "bindery.requests.spaces"),
    "ChangeRequestsFunction": (
        "change_requests_api.routes.merges", "change_requests_api.routes.mcp",
        "change_requests_api.routes.org_change_requests",
        "bindery.domain.change_requests.merges", "bindery.domain.change_requests.exports",
        "bindery.store.issue_clusters", "bindery.domain.comments.views", "bindery.domain.comments.bodies",
        "bindery.domain.comments.targets", "bindery.api.wire.comments", "bindery.store.comments",
        "bindery.domain.spaces.records", "bindery.requests.spaces"),
    "CommentsFunction": ("bindery.store.issue_clusters",),
    "MembersFunction": (
        "members_api.routes.invites", "members_api.routes.link_invites", "bindery.domain.invites",
        "bindery.api.wire.invites"),
    "SpacesFunction": (
        "spaces_api.routes.tree", "spaces_api.routes.permissions", "bindery.domain.transfers",
        "bindery.domain.access.grant_listings", "bindery.requests.integrations", "bindery.domain.revisions",
        "bindery.engines.search.indexing", "bindery.domain.integrations.content_events",
        "bindery.store.issue_clusters"),
    "PublishedSiteFunction": (
        "bindery.engines.site_pages.site_search", "bindery.engines.search.query", "bindery.store.search",
        "sqlite3"),
    "SearchFunction": (
        "search_api.routes.links", "bindery.domain.links", "bindery.api.wire.links",
        "bindery.api.wire.content",
        "bindery.api.responses.content", "bindery.api.responses.content_locations"),
    "SitesFunction": (
        "sites_api.routes.site_lifecycle", "sites_api.routes.structure_edits",
        "sites_api.routes.site_space_customization", "bindery.requests.sites", "bindery.store.integrations",
        "sites_api.routes.section_groups", "sites_api.routes.site_customization",
        "sites_api.routes.share_links", "sites_api.routes.site_integrations",
        "sites_api.routes.publishing_auth", "bindery.requests.site_sections",
        "bindery.domain.sites.section_groups", "bindery.domain.sites.adaptive",
        "bindery.domain.sites.share_links",
        "bindery.domain.sites.publishing_auth", "bindery.api.wire.integrations",
        "bindery.domain.integrations.content_installs", "bindery.domain.integrations.installations",
        "bindery.domain.integrations.events", "bindery.platform.queues",
        "bindery.api.responses.users", "bindery.api.responses.content_permissions", "bindery.api.wire.users",
        "bindery.api.wire.teams", "bindery.api.wire.git_sync", "bindery.api.responses.git_sync"),
    "IntegrationsFunction": (
        "integrations_api.routes.publishing", "integrations_api.routes.events",
        "integrations_api.routes.installations", "integrations_api.routes.content_installs",
        "integrations_api.install_targets", "bindery.api.responses.content_installations",
        "bindery.api.wire.content_installations", "bindery.api.responses.sites",
        "bindery.api.responses.spaces", "bindery.api.wire.sites", "bindery.api.wire.spaces",
        "bindery.domain.integrations.events",
        "bindery.domain.integrations.tokens", "bindery.platform.queues", "bindery.requests.integrations",
        "bindery.api.responses.users", "bindery.api.responses.content_permissions", "bindery.api.wire.users",
        "bindery.api.wire.teams", "bindery.api.wire.git_sync", "bindery.api.responses.git_sync"),
}


# The access checks every API function shares import an installation token's scopes and installation
# (its store) only for such a caller (bindery.domain.access.auth, .organization, .content); these
# functions' own routes do not need them otherwise.
INSTALLATIONS = ("bindery.domain.access.installation_scopes", "bindery.domain.access.installations",
                 "bindery.store.integration_installations")
INSTALLATIONS_ON_NEED = sorted(set(API_FUNCTIONS) - {
    "SitesFunction", "IntegrationsFunction", "ConversationsFunction", "PublishedSiteFunction"})


def test_every_function_skips_pydantics_plugin_scan_which_no_requirement_needs():
    # pydantic scans every installed distribution's entry points for plugins on its first model unless
    # told there are none: a cold-start cost a deployed function need not pay while none is installed.
    functions = load().functions
    assert {name: function.environment.get("PYDANTIC_DISABLE_PLUGINS") for name, function in functions.items()
            } == dict.fromkeys(functions, "__all__")
    assert list(importlib.metadata.entry_points(group="pydantic")) == []


def _modules_on_import(function_name: str) -> list[str]:
    function = load().functions[function_name]
    module = function.handler.rpartition(".")[0]
    script = f"import sys, json; import {module}; print(json.dumps(sorted(sys.modules)))"
    env_path = f"{ROOT / 'layers' / 'shared'}:{function.code_uri}"
    out = subprocess.run([sys.executable, "-c", script], env={"PYTHONPATH": env_path, "PATH": ""},
                         capture_output=True, text=True, check=True).stdout
    return list(json.loads(out))


def _loaded_on_import(function_name: str) -> list[str]:
    return sorted({name.split(".")[0] for name in _modules_on_import(function_name)} & set(HEAVY))


@pytest.mark.parametrize("function_name", API_FUNCTIONS)
def test_loading_a_handler_imports_no_heavy_engine(function_name):
    assert _loaded_on_import(function_name) == []


def test_the_check_sees_a_heavy_import():
    # The Git Sync worker needs dulwich for every message: it imports it when it loads.
    assert "dulwich" in _loaded_on_import("GitSyncWorker")


def test_the_conversations_worker_loads_the_insights_engine_only_when_it_processes():
    assert _loaded_on_import("ConversationsWorker") == []


@pytest.mark.parametrize("function_name", sorted(DEFERRED))
def test_loading_a_handler_leaves_its_rarely_used_routes_unimported(function_name):
    assert set(DEFERRED[function_name]).isdisjoint(_modules_on_import(function_name))


@pytest.mark.parametrize("function_name", INSTALLATIONS_ON_NEED)
def test_loading_a_handler_leaves_the_installation_tokens_access_checks_unimported(function_name):
    assert set(INSTALLATIONS).isdisjoint(_modules_on_import(function_name))


# Of those, the modules no route of the function imports at all, whatever the request: ContentFunction
# shows a change request's revision without its reviews, comments or change list; neither it nor
# ChangeRequestsFunction needs the spaces' domain to check a space's `editMode`; SitesFunction and
# IntegrationsFunction show spaces without the users and teams of their permissions or their Git Sync runs,
# and integrations without the bodies that publish and install them.
_NO_USERS_OR_RUNS = ("bindery.api.responses.users", "bindery.api.responses.content_permissions",
                     "bindery.api.wire.users", "bindery.api.wire.teams", "bindery.api.wire.git_sync",
                     "bindery.api.responses.git_sync")
NEVER_IMPORTED = {
    "ContentFunction": ("bindery.api.wire.reviews", "bindery.api.wire.comments",
                        "bindery.api.wire.change_request_changes", "bindery.api.responses.reviews",
                        "bindery.api.responses.comments", "bindery.domain.spaces.records"),
    "ChangeRequestsFunction": ("bindery.domain.spaces.records", "bindery.requests.spaces"),
    "SitesFunction": (*_NO_USERS_OR_RUNS, "bindery.requests.integrations"),
    "IntegrationsFunction": _NO_USERS_OR_RUNS,
    "SpacesFunction": ("bindery.requests.integrations",),  # an integration's shapes name none of its bodies
}


def _left_unimported(function_name: str) -> set[str]:
    shared = INSTALLATIONS if function_name in INSTALLATIONS_ON_NEED else ()
    return {*DEFERRED.get(function_name, ()), *shared} - set(NEVER_IMPORTED.get(function_name, ()))


@pytest.mark.parametrize("function_name", sorted(set(DEFERRED) | set(INSTALLATIONS_ON_NEED)))
def test_what_a_function_leaves_unimported_is_imported_before_a_snapstart_snapshot(function_name):
    # Under SnapStart the init phase runs once, into the snapshot: what a cold start leaves to a first
    # request must be imported by the before-snapshot hooks, or every restored environment pays for it.
    function = load().functions[function_name]
    script = textwrap.dedent(f"""
        import json, sys, types
        hooks = []
        runtime = types.ModuleType("snapshot_restore_py")
        runtime.register_before_snapshot = hooks.append
        runtime.register_after_restore = lambda hook: None
        sys.modules["snapshot_restore_py"] = runtime
        import {function.handler.rpartition(".")[0]}
        for hook in hooks:
            hook()
        print(json.dumps(sorted(sys.modules)))
    """)
    env = {"PYTHONPATH": f"{ROOT / 'layers' / 'shared'}:{function.code_uri}", "PATH": "",
           "AWS_DEFAULT_REGION": "us-east-1"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         check=True).stdout
    imported = set(json.loads(out))
    assert _left_unimported(function_name) <= imported
    assert imported.isdisjoint(NEVER_IMPORTED.get(function_name, ()))


def _fresh_handler_module(function_name: str) -> ModuleType:
    """The function's handler module as a new Lambda environment imports it: a new module object, since
    the one in sys.modules may have had its deferred routes included by an earlier test."""
    function = load().functions[function_name]
    load_handler(function)  # its code directory on sys.path, as the tests' gateway has it
    spec = importlib.util.find_spec(function.handler.rpartition(".")[0])
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _event(function_name: str, method: str, path: str, user_id: str) -> dict[str, object]:
    return build_event(method, path, Route(function_name, "/{proxy+}", "ANY"), {"proxy": path[1:]},
                       headers={"Host": "api.example.com"}, query="", body=None,
                       authorizer={"userId": user_id, "principalId": user_id})


def _route_paths(module: ModuleType) -> set[str]:
    return {route.path for route in module.app._static_routes + module.app._dynamic_routes}


def test_the_first_request_for_a_deferred_route_gets_its_answer_logs_and_metrics(
        api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    ada = api.org_admin()
    space = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": "Docs"}).json()
    module = _fresh_handler_module("ContentFunction")
    assert "/spaces/<spaceId>/git/runs" not in _route_paths(module)
    capsys.readouterr()

    with json_logs("content") as logs:
        response = module.lambda_handler(_event("ContentFunction", "GET", f"/spaces/{space['id']}/git/runs",
                                                ada.user_id), WorkerContext("ContentFunction"))

    assert response["statusCode"] == 200, response["body"]
    assert json.loads(response["body"])["items"] == []
    assert "/spaces/<spaceId>/git/runs" in _route_paths(module)
    (done,) = [line for line in logs if line["message"] == "invocation done"]  # one request, one line
    assert (done["route"], done["status"]) == ("GET /spaces/<spaceId>/git/runs", 200)
    assert dimensions(invocation_blob(capsys.readouterr().out))["route"] == "GET /spaces/<spaceId>/git/runs"


def test_a_path_no_route_serves_is_still_a_404_once_every_route_is_included(
        api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    ada = api.user("Ada")
    module = _fresh_handler_module("ChangeRequestsFunction")
    for _ in range(2):  # the first includes the deferred routes, the second finds none left
        capsys.readouterr()
        response = module.lambda_handler(_event("ChangeRequestsFunction", "GET", "/spaces/s1/nothing-here",
                                                ada.user_id), WorkerContext("ChangeRequestsFunction"))
        assert response["statusCode"] == 404
        assert json.loads(response["body"])["error"]["message"] == "No route for GET /spaces/s1/nothing-here"
        assert dimensions(invocation_blob(capsys.readouterr().out))["route"] == "(no route)"
    assert "/spaces/<spaceId>/change-requests/<changeRequestId>/merge" in _route_paths(module)


def test_a_fresh_sites_function_answers_a_structure_edit_and_then_lists_it(
        api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    # Adding a section is a deferred route (sites_api.routes.structure_edits) over the same paths as the
    # eager listing: its first request, a POST where only the GET is included, still gets its 201, its
    # log line and its route dimension; the listing the function loaded with then shows the section.
    ada = api.org_admin()
    docs, guides = (api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": title}).json()
                    for title in ("Docs", "Guides"))
    site = api.post(f"/orgs/{ada.org_id}/sites", token=ada.token,
                    body={"title": "Docs", "spaces": [docs["id"]]}).json()
    module = _fresh_handler_module("SitesFunction")
    path = f"/orgs/{ada.org_id}/sites/{site['id']}/sections"
    template = "/orgs/<organizationId>/sites/<siteId>/sections"
    routes = {(route.method, route.path) for route in module.app._static_routes + module.app._dynamic_routes}
    assert ("GET", template) in routes
    assert ("POST", template) not in routes
    capsys.readouterr()

    event = _event("SitesFunction", "POST", path, ada.user_id)
    event["body"] = json.dumps({"spaceId": guides["id"], "title": "Guides"})
    event["headers"] = {**event["headers"], "Content-Type": "application/json"}  # type: ignore[dict-item]
    with json_logs("sites") as logs:
        response = module.lambda_handler(event, WorkerContext("SitesFunction"))

    assert response["statusCode"] == 201, response["body"]
    (done,) = [line for line in logs if line["message"] == "invocation done"]
    assert (done["route"], done["status"]) == (f"POST {template}", 201)
    assert dimensions(invocation_blob(capsys.readouterr().out))["route"] == f"POST {template}"
    listed = module.lambda_handler(_event("SitesFunction", "GET", path, ada.user_id),
                                   WorkerContext("SitesFunction"))
    assert "Guides" in [section["title"] for section in json.loads(listed["body"])["items"]]


def test_a_fresh_integrations_function_answers_a_deferred_route_not_a_missing_one(
        api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    # An integration's events are a deferred route: its first request is answered by that route (its own
    # 404 for an unknown integration, its route dimension), not by the resolver's "No route" 404.
    ada = api.user("Ada")
    module = _fresh_handler_module("IntegrationsFunction")
    template = "/integrations/<integrationName>/events"
    assert template not in _route_paths(module)
    capsys.readouterr()

    with json_logs("integrations") as logs:
        response = module.lambda_handler(_event("IntegrationsFunction", "GET", "/integrations/nothing/events",
                                                ada.user_id), WorkerContext("IntegrationsFunction"))

    assert response["statusCode"] == 404
    assert json.loads(response["body"])["error"]["message"] == "No matching integration"
    (done,) = [line for line in logs if line["message"] == "invocation done"]
    assert (done["route"], done["status"]) == (f"GET {template}", 404)
    assert dimensions(invocation_blob(capsys.readouterr().out))["route"] == f"GET {template}"
