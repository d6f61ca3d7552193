"""Pausing Python's cyclic garbage collector around a bounded build that allocates many objects and no
reference cycles.

Parsing a 5,000-page tree and comparing it with an index makes some 30,000 dicts, lists and tuples at
once: each 700 of them starts a collection, and every tenth of those a deeper one, which find nothing to
free (JSON values and rows hold no cycles; reference counting frees them) yet walk the objects the process
already holds. Measured on a one-page merge into a 5,000-page space, those collections were a third of
the indexer's CPU (bench/README.md, "A merge and the work it queues").
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic collection inside the block; any cycle made meanwhile is collected after it. The
    collector's switch is the process's: a block nested in another (or running beside it on another
    thread) leaves it as the outer one set it, and the block that paused it switches it back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
