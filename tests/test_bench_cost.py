"""bench/cost.py's arithmetic, against figures computed by hand from its stated prices and assumptions
(us-east-1: REST API $3.50/M, Lambda arm64 $0.20/M + $0.0000133334/GB-s, RRU $0.125/M, WRU $0.625/M,
SQS $0.40/M, S3 PUT $5/M; 512 MB gets 512/1769 of a vCPU; 4 ms per DynamoDB round trip)."""

from __future__ import annotations

import pytest

from bench import cost


def test_billed_duration_stretches_cpu_by_the_memory_share_and_adds_round_trips():
    # 6 ms of CPU at 512 MB: 6 / (512 / 1769) = 20.73 ms, plus 2 round trips of 4 ms = 28.73 → 29 ms billed
    assert cost.billed_ms(6.0, 512, 2) == 29
    # a whole vCPU from 1,769 MB up: the CPU is the duration
    assert cost.billed_ms(6.0, 3008, 0) == 6


def test_a_read_costs_gateway_lambda_and_its_read_units():
    row = {"bindery": {"cpu_ms_environments": 6.0}, "capacity": {"read": 3.0, "write": 0.0}}
    priced = cost.price(cost.OPERATIONS[0], row)  # GET space, SpacesFunction (512 MB), 2 requests
    # Lambda: $0.20 + 0.029 s * 0.5 GB * $0.0000133334 * 10⁶ = $0.393334; DynamoDB: 3 * $0.125 = $0.375
    assert (priced.billed_ms, priced.memory) == (29, 512)
    assert priced.function == pytest.approx(0.393334, abs=1e-6)
    assert priced.dynamodb == pytest.approx(0.375)
    assert priced.total == pytest.approx(3.50 + 0.393334 + 0.375, abs=1e-6)  # $4.27 per million


def test_a_merge_adds_the_work_it_queues():
    merge = next(op for op in cost.OPERATIONS if op.name == "merge a change request")
    row = {"bindery": {"cpu_ms_environments": 30.0, "cpu_ms_server": 50.0},
           "floor": {"cpu_ms_server": 2.0}, "capacity": {"read": 6.0, "write": 8.0}}
    priced = cost.price(merge, row)
    # 9 requests: 30 / 0.289429 + 36 = 139.65 → 140 ms; Lambda $0.20 + 0.070 GB-s * $13.3334 = $1.133338
    assert priced.billed_ms == 140
    assert priced.function == pytest.approx(1.133338, abs=1e-6)
    # the floor's identical requests' units: 6 * $0.125 + 8 * $0.625
    assert priced.dynamodb == pytest.approx(6 * 0.125 + 8 * 0.625)
    # the indexer: 48 ms of CPU → 166 ms billed at 512 MB ($1.3066722), 3 SQS requests, 1 S3 PUT, 1 GET
    assert priced.worker_ms == 166
    assert priced.queued == pytest.approx(1.3066722 + 1.20 + 5.00 + 0.40, abs=1e-6)
    assert priced.total == pytest.approx(18.2900102, abs=1e-6)


def test_a_merge_prices_the_workers_own_cpu_not_the_queue_emulation():
    """Since session 39 bench.load reads the worker handlers' CPU apart from the runner's: the SQS
    emulation and the delivery polling around them (AWS's side) are not priced as Lambda time."""
    merge = next(op for op in cost.OPERATIONS if op.name == "merge a change request")
    row = {"bindery": {"cpu_ms_environments": 30.0, "cpu_ms_server": 90.0, "cpu_ms_workers": 48.0},
           "floor": {"cpu_ms_server": 2.0}, "capacity": {"read": 6.0, "write": 8.0}}
    # 48 ms, not 90 - 2 = 88: the same 166 ms billed as above
    assert cost.price(merge, row).worker_ms == 166


def test_the_table_prices_every_sized_operation_of_a_run():
    row = {"bindery": {"cpu_ms_environments": 6.0}, "floor": {"cpu_ms_environments": 2.0},
           "capacity": {"read": 3.0, "write": 0.0}}
    rendered = cost.table({"operations": {"GET space": row, "search (5,000 pages)": {"bindery": {}}}})
    lines = rendered.splitlines()
    assert lines[2].startswith("| GET space | 1 GetItem, 1 BatchGetItem | 3 | 0 | 6.0 | 512 | 29 |")
    assert lines[2].endswith("| **$4.27** |")
    assert lines[3].startswith("| + authorizer, token not cached | 1 GetItem | 0.5 | 0 | 1.0 | 512 |")
    assert len(lines) == 4  # the unsized search is left out, not priced at zero
