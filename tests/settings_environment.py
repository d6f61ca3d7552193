"""Environment variables that bindery.platform.config.settings reads, changed for a test: the settings are
re-read
after every change and after the restore (not monkeypatch: its undo runs in whatever order the fixtures'
teardowns take, after which nothing would re-read them)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from bindery.platform.config import settings


def set_env(name: str, value: str | None) -> None:
    """`name` set to `value`, or removed for None; the settings re-read."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
    settings.cache_clear()


@contextmanager
def changed_environment(values: Mapping[str, str | None]) -> Iterator[None]:
    """`values` in the environment (None: removed) while the block runs; what was there before after it."""
    before = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            set_env(name, value)
        yield
    finally:
        for name, value in before.items():
            set_env(name, value)
