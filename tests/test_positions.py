"""Fractional positions keep sibling order with single-item moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bindery.positions import DIGITS, between

position = st.text(alphabet=DIGITS, min_size=1, max_size=6).filter(lambda p: p[-1] != "0")


@given(position, position)
def test_between_two_positions_is_strictly_inside(a, b):
    if a == b:
        return
    low, high = sorted((a, b))
    middle = between(low, high)
    assert low < middle < high


@given(position)
def test_open_ends(a):
    assert between(a, None) > a
    assert between(None, a) < a


def test_repeated_inserts_at_the_front_stay_ordered():
    order = [between(None, None)]
    for _ in range(200):
        order.insert(0, between(None, order[0]))
    assert order == sorted(order)
    assert len(set(order)) == len(order)


def test_random_inserts_keep_a_total_order():
    rng = random.Random(7)
    order = [between(None, None)]
    for _ in range(500):
        index = rng.randint(0, len(order))
        before = order[index - 1] if index > 0 else None
        after = order[index] if index < len(order) else None
        order.insert(index, between(before, after))
    assert order == sorted(order)
    assert len(set(order)) == len(order)


def test_out_of_order_bounds_are_refused():
    with pytest.raises(ValueError, match="out of order"):
        between("b", "a")
