"""The engine on real support-style threads nobody here wrote (SeaMonkey's Bugzilla reports, with
Bugzilla's own duplicate links as the truth; tests/data/conversations/README.md): reports of the same
problem land in the same cluster and different problems apart, measured pairwise. The floors sit below
what the engine reaches (docs/conversations.md has the figures) and far above what the naive baselines
reach, so that a change which makes grouping worse fails here."""

from __future__ import annotations

import pytest

from tests.insights.quality import baseline, cluster, score, threads

PRECISION_FLOOR = 0.50
RECALL_FLOOR = 0.42
F1_FLOOR = 0.47
# Newest first (the reverse of the reports' order) the engine reaches less: the first member of a
# cluster shapes what joins it.
REVERSED_F1_FLOOR = 0.38


@pytest.fixture(scope="module")
def items():
    return threads()


def test_the_corpus_is_what_the_readme_says(items):
    assert len(items) == 150
    assert len({t.group for t in items}) == 104


def test_threads_about_one_problem_cluster_together_and_apart_from_the_others(items):
    found = score(items, cluster(items))
    assert found.precision >= PRECISION_FLOOR
    assert found.recall >= RECALL_FLOOR
    assert found.f1 >= F1_FLOOR


def test_the_naive_baselines_do_not_reach_the_floor(items):
    everything_together = baseline(items, lambda t: "all")
    each_alone = baseline(items, lambda t: t.id)
    assert everything_together.recall == 1.0
    assert everything_together.f1 < F1_FLOOR / 10
    assert each_alone.recall == 0.0
    assert each_alone.f1 < F1_FLOOR


def test_the_order_of_arrival_decides_nothing_essential(items):
    found = score(items, cluster(list(reversed(items))))
    assert found.f1 >= REVERSED_F1_FLOOR
