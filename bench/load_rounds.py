"""bench.load's bookkeeping of rounds: each operation's Bindery and floor are measured once per round,
alternately, and a round's ratio is only as good as the minutes it ran in, so the figure reported is the
median over the rounds, with their spread. Pure code (tests/test_bench_load_rounds.py)."""

from __future__ import annotations

import statistics
from typing import Any

Measured = dict[str, float]  # one measurement of one side: rps, latency, CPU ms per request by role


def work_ms(measured: Measured) -> float:
    """CPU milliseconds per request in the execution environments and the engine: what the operation's
    own code and its requests cost (the HTTP server is the same for Bindery and its floor)."""
    return measured.get("cpu_ms_environments", float("nan")) + measured.get("cpu_ms_engine", float("nan"))


def with_queued_ms(measured: Measured) -> float:
    """`work_ms` plus the worker functions' CPU the operation queued (a merge's search indexing)."""
    return work_ms(measured) + measured.get("cpu_ms_workers", 0.0)


def attribute(measured: Measured) -> Measured:
    """Splits the runner process's CPU (`cpu_ms_server`) into the workers' handlers (`cpu_ms_workers`:
    queued work, which a deployed stack runs in its worker functions) and the rest (`cpu_ms_emulation`:
    the HTTP server, moto's SQS and the delivery threads' polling, which API Gateway and AWS's event
    source mapping do, not Bindery's code)."""
    if "cpu_ms_server" in measured and "cpu_ms_workers" in measured:
        measured["cpu_ms_emulation"] = measured["cpu_ms_server"] - measured["cpu_ms_workers"]
    return measured


def ratios(bindery: Measured, floor: Measured) -> dict[str, float]:
    """One round's Bindery ÷ floor: CPU (environments + engine), CPU with the queued work, requests/s."""
    return {"cpu": work_ms(bindery) / work_ms(floor),
            "cpu_with_queued": with_queued_ms(bindery) / with_queued_ms(floor),
            "rps": bindery["rps"] / max(floor["rps"], 1e-9)}


def median_of(measurements: list[Measured]) -> Measured:
    """Each figure's median over the rounds (those every round has)."""
    shared = set.intersection(*(set(measured) for measured in measurements))
    return {key: statistics.median(measured[key] for measured in measurements) for key in sorted(shared)}


def summarize(rounds: list[dict[str, Measured]]) -> dict[str, Any]:
    """An operation's row from its rounds (each {"bindery": ..., "floor": ...}): every round's figures
    and ratios, each side's median figures, and per ratio its median, lowest and highest, spread."""
    if not rounds:
        raise ValueError("no rounds to summarize")
    each = [ratios(round_["bindery"], round_["floor"]) for round_ in rounds]
    floor_ratio: dict[str, Any] = {}
    for name in each[0]:
        values = [ratio[name] for ratio in each]
        floor_ratio[name] = statistics.median(values)
        floor_ratio[f"{name}_rounds"] = values
        floor_ratio[f"{name}_spread"] = max(values) - min(values)
    return {"rounds": [{**round_, "floor_ratio": ratio} for round_, ratio in zip(rounds, each, strict=True)],
            "bindery": median_of([round_["bindery"] for round_ in rounds]),
            "floor": median_of([round_["floor"] for round_ in rounds]),
            "floor_ratio": floor_ratio}


def order(round_number: int) -> tuple[str, str]:
    """Which side goes first in a round: Bindery in even rounds, its floor in odd ones, so that a machine
    speeding up or slowing down over a round favours neither side."""
    return ("bindery", "floor") if round_number % 2 == 0 else ("floor", "bindery")


def report(results: dict[str, Any]) -> None:
    """The table bench.load prints: median figures, each round's CPU ratio and the spread."""
    print(f"{results['connections']} kept-alive connections (merges: one client), {results['seconds']} s, "
          f"{results['rounds']} rounds, engine {results['engine']}, load average {results['load_before']} "
          f"before, {results['load_after']} after")
    print(f"{'operation':<26}{'Bindery req/s':>14}{'p50':>7}{'p99':>7}{'floor req/s':>12}{'÷ floor':>8}"
          f"{'Prism req/s':>12}{'÷ Prism':>8}   CPU ms/request, environments + engine: Bindery, floor, "
          f"÷ floor median [rounds] spread; runner: workers, emulation (floor's); Prism")
    nan = float("nan")
    for name, row in results["operations"].items():
        b, f, p, r = row["bindery"], row["floor"], row["prism"], row["floor_ratio"]
        peer = f"{p['rps']:>12.0f}{row['ratio']:>8.2f}" if p else f"{'—':>12}{'—':>8}"
        rounds = ", ".join(f"{value:.2f}" for value in r["cpu_rounds"])
        cpu = (f"{work_ms(b):.1f}, {work_ms(f):.1f}, {r['cpu']:.2f} [{rounds}] ±{r['cpu_spread'] / 2:.2f}; "
               f"{b.get('cpu_ms_workers', nan):.1f}, {b.get('cpu_ms_emulation', nan):.1f} "
               f"({f.get('cpu_ms_emulation', nan):.1f}); {(p or {}).get('cpu_ms_prism', nan):.1f}")
        failed = sum(round_[side]["failed"] for round_ in row["rounds"] for side in ("bindery", "floor"))
        failed += p["failed"] if p else 0
        print(f"{name:<26}{b['rps']:>14.0f}{b['p50_ms']:>7.0f}{b['p99_ms']:>7.0f}{f['rps']:>12.0f}"
              f"{r['rps']:>8.2f}{peer}   {cpu}" + (f"  ({failed:.0f} failed)" if failed else ""))
        if b.get("cpu_ms_workers"):
            print(f"{'':<26}with the queued work: {with_queued_ms(b):.1f} ms against the floor's "
                  f"{with_queued_ms(f):.1f}, ÷ floor {r['cpu_with_queued']:.2f}")
    one = results.get("one_client")
    if one:
        print(f"One client, GET space, median: kept alive {one['keep_alive_ms']:.1f} ms, new connection "
              f"{one['new_connection_ms']:.1f} ms (new ÷ kept {one['ratio_new_over_kept']:.2f})")
