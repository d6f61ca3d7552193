"""Incremental clustering: signatures, profiles, the nearest cluster above the threshold, descriptions."""

from __future__ import annotations

import json

import pytest

from bindery.engines.insights.clustering import (
    SIGNATURE_TERMS,
    THRESHOLD,
    TOP_TERMS,
    ClusterProfile,
    Signature,
    absorb,
    nearest,
    release,
    signature,
    signatures,
    similarities,
)
from bindery.engines.insights.description import describe
from bindery.engines.insights.model import ExtractedIssue

RESET_1 = ExtractedIssue("Password reset email never arrives", "I asked for a password reset twice and the "
                         "email never arrived, not even in spam.")
RESET_2 = ExtractedIssue("No password reset email", "The reset password email is not sent when I click "
                         "forgot password.")
PDF = ExtractedIssue("PDF export cuts the tables", "When I export a space to PDF, wide tables are cut at "
                     "the right margin.")


def test_similar_issues_join_and_different_ones_do_not():
    profiles = {"reset": absorb(None, signature(RESET_1))}
    assert nearest(signature(RESET_2), profiles) == "reset"
    assert nearest(signature(PDF), profiles) is None


def test_the_threshold_decides():
    profiles = {"reset": absorb(None, signature(RESET_1))}
    score = similarities(signature(RESET_2), profiles)["reset"]
    assert THRESHOLD <= score < 1
    assert nearest(signature(RESET_2), profiles, threshold=score) == "reset"
    assert nearest(signature(RESET_2), profiles, threshold=score + 1e-6) is None


def test_the_most_similar_cluster_wins_and_ties_go_to_the_smallest_id():
    reset = absorb(None, signature(RESET_1))
    pdf = absorb(None, signature(PDF))
    assert nearest(signature(RESET_2), {"a-pdf": pdf, "z-reset": reset}) == "z-reset"
    assert nearest(signature(RESET_2), {"b": reset, "a": reset, "c": reset}) == "a"
    assert nearest(signature(RESET_2), {}) is None


def test_signatures_are_deterministic_and_round_trip():
    sig = signature(RESET_1)
    assert sig == signature(RESET_1)
    assert Signature.from_json(sig.to_json()) == sig
    assert 0 < len(sig.terms) <= SIGNATURE_TERMS


def test_a_profile_counts_its_issues_and_round_trips():
    profile = absorb(absorb(None, signature(RESET_1)), signature(RESET_2))
    assert profile.size == 2
    assert ClusterProfile.from_json(profile.to_json()) == profile


def test_profiles_stay_bounded_however_many_issues_join():
    profile = None
    for i in range(400):
        words = " ".join(f"topic{i}word{j}" for j in range(30))
        profile = absorb(profile, signature(ExtractedIssue(f"Problem number {i}", words)))
    assert profile is not None
    assert profile.size == 400
    assert len(profile.terms) == TOP_TERMS
    assert len(profile.to_json()) <= 20_000


@pytest.mark.parametrize("raw", ["[]", '{"n": -1, "t": []}', '{"n": 1, "t": [[1]]}',
                                 '{"n": 1, "t": [["a", 1]]}', '{"n": 1, "t": [[1048576, 1]]}',
                                 '{"n": 1, "t": [[5, NaN]]}', '{"n": 1, "t": [[5, -1]]}'])
def test_a_broken_profile_is_refused(raw):
    with pytest.raises(ValueError, match=r"cluster profile|terms"):
        ClusterProfile.from_json(raw)


def test_describe_uses_the_most_central_issue_and_a_topic_icon():
    third = ExtractedIssue("Reset email for my password not received", "Password reset email is not "
                           "received.")
    description = describe([RESET_1, RESET_2, third])
    assert description.label in {RESET_1.title, RESET_2.title, third.title}
    assert description.icon == "lock"
    assert describe([PDF]).label == PDF.title
    assert describe([PDF]).summary == PDF.summary
    assert describe([PDF]).icon == "file-export"
    assert describe([ExtractedIssue("Strange thing", "It happens on Tuesdays.")]).icon == "circle-question"


def test_describe_needs_an_issue():
    with pytest.raises(ValueError, match="at least one"):
        describe([])


def test_signature_json_is_compact():
    assert len(json.loads(signature(PDF).to_json())["t"]) <= SIGNATURE_TERMS


def test_signatures_hashed_together_are_those_hashed_one_by_one():
    assert signatures([RESET_1, PDF, RESET_2]) == [signature(RESET_1), signature(PDF), signature(RESET_2)]
    assert signatures([]) == []


def test_an_issue_released_from_a_profile_takes_its_terms_back():
    reset = absorb(None, signature(RESET_1))
    both = absorb(reset, signature(PDF))
    left = release(both, signature(PDF))
    assert left.size == 1
    # Only the weights of the issue that stays are left (up to the sums' rounding).
    assert dict(left.terms).keys() == dict(reset.terms).keys()
    assert all(abs(weight - dict(reset.terms)[column]) < 1e-5 for column, weight in left.terms)
    assert nearest(signature(PDF), {"c": left}) is None
    assert nearest(signature(PDF), {"c": both}) == "c"


def test_an_issue_of_stop_words_only_joins_no_cluster():
    empty = signature(ExtractedIssue("Help please", "It does not work, can you help?"))
    assert empty.terms == ()
    assert nearest(empty, {"reset": absorb(None, signature(RESET_1))}) is None
    assert similarities(empty, {"void": absorb(None, empty)}) == {"void": 0.0}
