"""Search on a 5,000-page space: building its index, and warm queries timed against a baseline measured
in the same run (a primary-key lookup on the same SQLite file), so the figures compare across machines.

    python -m bench.search_bench [--pages 5000] [--repeat 50]

Pages are generated (titles, a few sections of sentences drawn from a fixed vocabulary, seeded), built
into one index with the code the indexer runs (bindery.engines.search.index), and opened read-only as the
search function opens its cached copy. Each query's median over `--repeat` runs is reported in
milliseconds and as a ratio to the baseline. No AWS: only the index and the query code are measured.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "layers" / "shared"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bench.timing import median_ms  # noqa: E402
from bindery.engines.search.index import IndexedPage, build  # noqa: E402
from bindery.engines.search.query import search  # noqa: E402
from bindery.engines.search.text import Section  # noqa: E402

WORDS = """buffer chunk flush output input plugin parser filter record tag match route label worker retry
timeout queue memory file tail syslog forward secure certificate server client socket metrics monitor log
rotate size limit interval thread process config parameter section""".split()  # noqa: SIM905
QUERIES = ("buffer", "chunk limit", '"flush interval"', "certif*", "rotating logs", "syslog forward secure",
           "nonexistentword")


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."


def pages(count: int, seed: int = 7) -> list[IndexedPage]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {i}"
        sections = [Section(None, title, " ".join(_sentence(rng) for _ in range(3)))]
        for j in range(rng.randint(2, 6)):
            heading = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)}"
            sections.append(Section(f"s{j}", heading, " ".join(_sentence(rng) for _ in range(4))))
        out.append(IndexedPage(f"p{i}", title, f"group-{i // 100}/page-{i}", "", sections))
    return out



def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    generated = pages(args.pages)
    started = time.perf_counter()
    data, count = build(generated)
    elapsed = time.perf_counter() - started
    print(f"built an index of {count} pages ({len(data) / 1e6:.1f} MB) in {elapsed:.2f}s")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "index.sqlite"
        path.write_bytes(data)
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
        baseline = median_ms(lambda: connection.execute(
            "SELECT id, title FROM pages WHERE rowid = ?", (count // 2,)).fetchone(), args.repeat)
        print(f"{'baseline (primary-key lookup)':34} {baseline:8.3f} ms")
        results = {"baseline": baseline}
        def searching(query: str) -> Callable[[], object]:
            return lambda: search(connection, query, limit=20)

        for query in QUERIES:
            search(connection, query, limit=20)  # warm: pages of the file in the OS cache
            median = median_ms(searching(query), args.repeat)
            results[query] = median
            print(f"{query:34} {median:8.3f} ms  ({median / baseline:8.0f}x baseline)")
        connection.close()
    return results


if __name__ == "__main__":
    main()
