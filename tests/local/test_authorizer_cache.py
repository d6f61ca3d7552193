"""The runner caches the TOKEN authorizer's answer per token for the template's ReauthorizeEvery, as API
Gateway does (so a token check is not paid on every request); failures are not cached."""

from __future__ import annotations

from typing import Any

import pytest

from local import gateway as gateway_module
from local.gateway import Gateway


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[Gateway, list[str], list[float]]:
    gateway = Gateway(cache_authorizer=True)
    name = gateway.template.authorizer
    assert name is not None
    real = gateway._handler(gateway.template.functions[name])
    calls: list[str] = []

    def counting(event: dict[str, Any], context: Any) -> Any:
        calls.append(event["authorizationToken"])
        return real(event, context)

    gateway._handlers[name] = counting
    clock = [1_000.0]
    monkeypatch.setattr(gateway_module.time, "monotonic", lambda: clock[0])
    return gateway, calls, clock


def test_a_token_is_checked_once_per_ttl(api, counted):
    gateway, calls, clock = counted
    ada = api.org_admin()
    headers = {"Authorization": f"Bearer {ada.token}"}
    ttl = gateway.template.authorizer_ttl
    assert ttl == 60  # ReauthorizeEvery in template.yaml

    for _ in range(3):
        reply = gateway.dispatch("GET", "/v1/user", headers)
        assert (reply.status, reply.json()["id"]) == (200, ada.user_id)
    assert len(calls) == 1

    clock[0] += ttl - 1
    assert gateway.dispatch("GET", "/v1/user", headers).status == 200
    assert len(calls) == 1
    clock[0] += 2
    assert gateway.dispatch("GET", "/v1/user", headers).status == 200
    assert len(calls) == 2


def test_each_token_has_its_own_answer_and_refusals_are_not_cached(api, counted):
    gateway, calls, _ = counted
    ada, bob = api.org_admin("Ada"), api.org_admin("Bob", "Other")
    for who in (ada, bob):
        reply = gateway.dispatch("GET", "/v1/user", {"Authorization": f"Bearer {who.token}"})
        assert reply.json()["id"] == who.user_id
    assert len(calls) == 2

    for _ in range(2):
        assert gateway.dispatch("GET", "/v1/user", {"Authorization": "Bearer gb_api_unknown"}).status == 401
    assert len(calls) == 4

