"""bench.load's rounds (bench/load_rounds.py): each round's Bindery ÷ floor, the median the table reports
and the spread of the rounds, each side's median figures for bench.cost, the order of the sides, and the
runner's CPU split between the workers' queued work and the emulation around it."""

from __future__ import annotations

import math

import pytest

from bench.load_rounds import attribute, median_of, order, summarize, work_ms


def side(environments: float, engine: float, rps: float, **more: float) -> dict[str, float]:
    return {"cpu_ms_environments": environments, "cpu_ms_engine": engine, "rps": rps, "requests": 100.0,
            "failed": 0.0, **more}


def test_the_reported_ratio_is_the_median_of_the_rounds_with_their_spread() -> None:
    rounds = [{"bindery": side(10, 2, 100), "floor": side(8, 2, 120)},   # 1.20
              {"bindery": side(14, 2, 90), "floor": side(8, 2, 110)},    # 1.60
              {"bindery": side(11, 2, 95), "floor": side(8, 2, 100)}]    # 1.30
    row = summarize(rounds)
    assert row["floor_ratio"]["cpu_rounds"] == pytest.approx([1.2, 1.6, 1.3])
    assert row["floor_ratio"]["cpu"] == pytest.approx(1.3)  # not the mean, 1.37
    assert row["floor_ratio"]["cpu_spread"] == pytest.approx(0.4)
    assert row["floor_ratio"]["rps"] == pytest.approx(100 / 120)  # of the rounds: 0.83, 0.82, 0.95
    assert [r["floor_ratio"]["cpu"] for r in row["rounds"]] == pytest.approx([1.2, 1.6, 1.3])
    # each side's figures are their own medians (what bench.cost prices), not one round's
    assert row["bindery"]["cpu_ms_environments"] == 11
    assert row["floor"]["rps"] == 110


def test_one_round_is_its_own_median_with_no_spread() -> None:
    row = summarize([{"bindery": side(9, 3, 50), "floor": side(6, 2, 60)}])
    assert (row["floor_ratio"]["cpu"], row["floor_ratio"]["cpu_spread"]) == (1.5, 0)
    with pytest.raises(ValueError, match="no rounds"):
        summarize([])


def test_median_figures_keep_only_what_every_round_measured() -> None:
    merged = median_of([{"rps": 1.0, "cpu_ms_workers": 5.0}, {"rps": 3.0}, {"rps": 2.0}])
    assert merged == {"rps": 2.0}


def test_sides_alternate_which_goes_first() -> None:
    assert [order(number) for number in range(3)] == [("bindery", "floor"), ("floor", "bindery"),
                                                       ("bindery", "floor")]


def test_the_runners_cpu_is_split_into_queued_work_and_emulation() -> None:
    merge = attribute(side(40, 60, 9, cpu_ms_server=90.0, cpu_ms_workers=70.0))
    assert merge["cpu_ms_emulation"] == pytest.approx(20.0)
    floor = attribute(side(25, 25, 20, cpu_ms_server=4.0, cpu_ms_workers=0.0))
    row = summarize([{"bindery": merge, "floor": floor}])
    # the headline stays the request's own CPU; the queued work is counted beside it, never the emulation
    assert row["floor_ratio"]["cpu"] == pytest.approx(100 / 50)
    assert row["floor_ratio"]["cpu_with_queued"] == pytest.approx(170 / 50)
    assert math.isnan(work_ms({"rps": 1.0}))  # no /proc: no CPU figures, and no ratio made up
