"""Timing what the micro-benchmarks compare: the median of repeated calls, in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(call: Callable[[], Any], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000
