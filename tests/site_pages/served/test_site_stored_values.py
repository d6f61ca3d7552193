"""A published site renders pages whose stored fields the response models refuse (an older Bindery's
layout key, hand edits of other types: tests/api/test_stored_values.py): the page, its neighbours and
the site search still answer 200, as the API's reads do."""

from __future__ import annotations

from tests.api.test_content_reads import publish, stored_tree
from tests.api.test_stored_values import ODD
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
