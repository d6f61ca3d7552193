"""A published site renders pages whose stored fields the response models refuse (an older Bindery's
layout key, hand edits of other types: tests/api/cross_cutting/test_stored_values.py): the page, its
neighbours and the site search still answer 200, as the API's reads do."""

from __future__ import annotations

from tests.api.content.test_content_reads import publish, stored_tree
from tests.api.cross_cutting.test_stored_values import ODD
from tests.site_pages.served.conftest import World


def test_a_site_renders_pages_with_odd_stored_fields(world: World) -> None:
    value = stored_tree(world.guide)
    install = next(entry for entry in value["pages"] if entry["slug"] == "install")
    install.update(ODD)
    install["pages"][0]["layout"] = {"mask": "radial"}
    publish(world.guide, value)
    assert world.api.post(world.site("/publish"), token=world.ada.token).status == 200
    assert "<h1>Install</h1>" in world.text("/install")
    assert "On Linux" in world.text("/install/linux")
    assert "<h1>Welcome</h1>" in world.text("")
    assert world.get("/~site/search?q=package").status == 200


def test_a_flag_stored_as_another_type_means_unset_on_the_site_as_in_the_api(world: World) -> None:
    # `hidden: "true"` and `noIndex: 1` (hand edits): the API serves neither, so the page reads as shown
    # and indexable; the site agrees (it used to take any truthy value and hide the page).
    value = stored_tree(world.guide)
    secret = next(entry for entry in value["pages"] if entry["slug"] == "secret")
    secret.update({"hidden": "true", "noIndex": 1})
    publish(world.guide, value)
    assert world.api.post(world.site("/publish"), token=world.ada.token).status == 200
    listed = world.api.get(f"/spaces/{world.guide}/content/pages", token=world.ada.token).json()["pages"]
    served = next(entry for entry in listed if entry["slug"] == "secret")
    assert not {"hidden", "noIndex"} & served.keys()
    assert 'href="/sites/acme/docs/secret"' in world.text("/install")
    reply = world.get("/secret")
    assert "X-Robots-Tag" not in reply.headers
    assert 'name="robots"' not in world.text("/secret")
