"""Drives the functions through the in-process gateway: real routes from template.yaml, the real
authorizer, REST proxy events. No sockets."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from bindery.platform import admin
from local.gateway import Gateway, Reply


@dataclass
class Identity:
    user_id: str
    token: str
    org_id: str | None = None


class ApiClient:
    def __init__(self) -> None:
        self.gateway = Gateway()

    def call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
             query: dict[str, Any] | None = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> Reply:
        target = "/v1" + path
        if query:
            target += "?" + urlencode({k: v for k, v in query.items() if v is not None})
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        return self.gateway.dispatch(method, target, sent, data)

    def get(self, path: str, **kw: Any) -> Reply:
        return self.call("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Reply:
        return self.call("POST", path, **kw)

    def put(self, path: str, **kw: Any) -> Reply:
        return self.call("PUT", path, **kw)

    def patch(self, path: str, **kw: Any) -> Reply:
        return self.call("PATCH", path, **kw)

    def delete(self, path: str, **kw: Any) -> Reply:
        return self.call("DELETE", path, **kw)

    # --- set-up helpers: what an operator does with `python -m bindery.platform.admin` ---------------------
    def user(self, name: str = "Ada", email: str | None = None, *, verified: bool = True) -> Identity:
        issued = admin.create_user(name, email or f"{name.lower().replace(' ', '.')}@example.com",
                                   email_verified=verified)
        return Identity(issued.user_id, issued.token)

    def org_admin(self, name: str = "Ada", title: str = "Acme") -> Identity:
        who = self.user(name)
        who.org_id = admin.create_org(who.user_id, title)
        return who
