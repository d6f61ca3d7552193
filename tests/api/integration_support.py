"""Helpers of the integration tests: a publish body, publishing, installing."""

from __future__ import annotations

import base64

from tests.api.content.test_content_reads import doc, page, tree
from tests.api.content.test_content_reads import publish as publish_content

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
PNG64 = base64.b64encode(PNG).decode()
SCRIPT = "export default function handler() { return new Response('ok'); }"

SECRET = "whsec-test-signing-secret"



def publish_body(org_id, **fields):
    body = {"organization": org_id, "title": "Analytics", "description": "Counts views",
            "script": SCRIPT, "scopes": ["space:content:read"]}
    body.update(fields)
    return body


def publish(api, who, name="analytics", status=200, **fields):
    reply = api.post(f"/integrations/{name}", token=who.token, body=publish_body(who.org_id, **fields))
    assert reply.status == status, reply.body
    return reply.json()


def install(api, who, name="analytics", org_id=None, status=201):
    reply = api.post(f"/integrations/{name}/installations", token=who.token,
                     body={"organization": org_id or who.org_id})
    assert reply.status == status, reply.body
    return reply.json()


def seeded_space(api, who, title):
    """A space of `who`'s organization with one page: {id, page, revision}."""
    reply = api.post(f"/orgs/{who.org_id}/spaces", token=who.token, body={"title": title})
    assert reply.status == 201, reply.body
    space_id = reply.json()["id"]
    revision = publish_content(space_id, tree(page("p1", "Intro")), {"p1": doc("Hello.")})
    return {"id": space_id, "page": "p1", "revision": revision}
