"""`if` blocks in evaluated page reads, through the API (revision built as
tests/api/content/test_content_reads.py does)."""

from __future__ import annotations

import pytest

from tests.api.content.test_content_reads import page, paragraph, publish, tree
from tests.api.spaces.test_spaces import new_space


def if_block(expression, *children, key):
    return {"object": "block", "type": "if", "key": key, "isVoid": False, "data": {"expression": expression},
            "nodes": list(children)}


@pytest.mark.parametrize("evaluated", ["true", "deterministic-only", "false"])
def test_if_blocks_follow_the_space_and_page_variables(api, evaluated):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    body = {"object": "document", "data": {}, "nodes": [
        paragraph("Install"),
        if_block("space.vars.edition == 'cloud'", paragraph("Sign in to the cloud."), key="cloud"),
        if_block("page.vars.os === 'windows'", paragraph("Run setup.exe."), key="windows"),
        if_block("visitor.claims.plan == 'pro' && space.vars.edition == 'cloud'", paragraph("Pro tips."),
                 key="pro"),
    ]}
    publish(space_id, tree(page("p", "Install", variables={"os": "linux"}), variables={"edition": "cloud"}),
            {"p": body})
    reply = api.get(f"/spaces/{space_id}/content/page/p", token=ada.token, query={"evaluated": evaluated})
    assert reply.status == 200
    nodes = reply.json()["document"]["nodes"]
    if evaluated == "false":
        assert nodes == body["nodes"]
        return
    # The cloud block gives way to its paragraph, the Windows one goes; deterministic-only keeps the
    # visitor-dependent one for the client to decide, `true` decides it for a visitor without claims.
    assert nodes[:2] == [paragraph("Install"), paragraph("Sign in to the cloud.")]
    assert nodes[2:] == ([body["nodes"][3]] if evaluated == "deterministic-only" else [])
