"""The cyclic collector paused around a build (platform.garbage_collection) is switched back on after it,
whatever happens inside, and a nested pause does not switch it on early."""

from __future__ import annotations

import gc

import pytest

from bindery.platform.garbage_collection import collection_paused


def test_paused_inside_and_on_again_after() -> None:
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error() -> None:
    with pytest.raises(RuntimeError), collection_paused():
        raise RuntimeError("the build failed")
    assert gc.isenabled()


def test_a_nested_pause_leaves_it_to_the_outer_one() -> None:
    with collection_paused():
        with collection_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_left_off_when_it_was_off() -> None:
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
