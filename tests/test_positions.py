"""Fractional positions keep sibling order with single-item moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bindery.engines.content.positions import DIGITS, between

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


@pytest.mark.parametrize(("before", "after"), [("A", "A"), ("V", "V"), ("A1", "A1"), ("B", "A"),
                                               ("A1", "A"), ("z", "0z")])
def test_equal_or_inverted_bounds_are_a_clear_error_not_a_hang(before, after):
    with pytest.raises(ValueError, match="out of order"):
        between(before, after)


@pytest.mark.parametrize(("before", "after"), [
    ("A", "A1"),  # the lower bound is a prefix of the upper, one step above it
    ("A", "A01"),  # ... with a lowest digit in between
    ("A", "A001"),
    ("A", "B"),  # adjacent digits: the answer needs a longer key
    ("Az", "B"),  # the lower bound ends on the highest digit
    ("Azz", "B1"),
    ("1", "2"),
    ("y", "z"),
    ("A1", "A2"),
    ("A", "Az"),
    (None, "1"),  # the lowest position there is room below
    (None, "01"),
    ("z", None),
    ("zzz", None),
])
def test_adjacent_and_prefix_bounds_have_a_position_between(before, after):
    middle = between(before, after)
    assert before is None or before < middle
    assert after is None or middle < after
    assert middle[-1] != "0"  # still a position: there is room on both sides of it
    assert before is None or before < between(before, middle) < middle
    assert after is None or middle < between(middle, after) < after


@pytest.mark.parametrize("bad", ["", "A0", "0", "A-B", "é"])
def test_a_bound_that_is_not_a_position_is_refused(bad):
    # Nothing sorts between "A" and "A0": a bound ending in 0 would leave no answer to search for.
    with pytest.raises(ValueError, match="not a position"):
        between(None, bad)
    with pytest.raises(ValueError, match="not a position"):
        between(bad, None)


@settings(deadline=1000)
@given(position, st.text(alphabet=DIGITS, min_size=0, max_size=4))
def test_between_a_position_and_one_it_prefixes(a, tail):
    b = a + tail + "1"  # every key with `a` as a proper prefix sorts above it; `1` is the smallest last digit
    middle = between(a, b)
    assert a < middle < b
    assert middle[-1] != "0"


@settings(deadline=1000)
@given(position, position)
def test_inserting_again_and_again_on_one_side_stays_inside(a, b):
    if a == b:
        return
    low, high = sorted((a, b))
    for _ in range(20):
        middle = between(low, high)
        assert low < middle < high
        assert middle[-1] != "0"
        high = middle


@pytest.mark.parametrize(("before", "after", "middle"), [
    ("A", "C", "B"),  # a gap of two digits holds one: no longer key than needed
    ("1", "3", "2"),
    ("A1", "A3", "A2"),
    (None, None, "V"),
    ("V", None, "k"),
    (None, "V", "F"),
])
def test_a_gap_wide_enough_takes_its_middle_digit_without_growing_the_key(before, after, middle):
    # Keys stay as short as the gap allows: they are sort keys in DynamoDB and grow with every insert.
    assert between(before, after) == middle
