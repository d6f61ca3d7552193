"""Time, in one place, so that tests can move it (e.g. past a 7-day restore window)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta


def now() -> datetime:
    # BINDERY_CLOCK_OFFSET_SECONDS shifts the clock for tests of expiry; it is never set in deployed stacks.
    offset = float(os.environ.get("BINDERY_CLOCK_OFFSET_SECONDS", "0"))
    return datetime.now(UTC) + timedelta(seconds=offset)


def iso(moment: datetime) -> str:
    """ISO 8601 with milliseconds and a `Z`, as the wire format uses."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_iso() -> str:
    return iso(now())


def iso_week(moment: datetime) -> str:
    """`YYYY-Www`, the ISO week of a moment: what a conversation cluster's weekly counters are keyed by
    and its pulse is read by (the two must agree)."""
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"
