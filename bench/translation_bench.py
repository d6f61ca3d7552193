"""Translation runs on a 1,000-page space, in process on moto, with a zero-latency translator (the tests'
LibreTranslate-protocol server on loopback, which answers at once): words per second through the whole
pipeline, and the DynamoDB requests of an incremental run after a one-page edit.

    python -m bench.translation_bench [--pages 1000]

Baseline from the same run: committing the same 1,000 pages to the source space (`commit_revision` +
`advance_space`, what writing the content costs). Reported: the first (full) run's seconds as a ratio to
the baseline, its words per second, and the requests of the full and of the incremental run (whose ratio
to the full run is the point of incremental runs).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.environment import in_process_aws, set_environment  # noqa: E402
from bindery.domain.revisions import advance_space, commit_revision  # noqa: E402
from bindery.domain.translations.result import run  # noqa: E402
from bindery.engines.content.positions import between  # noqa: E402
from bindery.platform import clock  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.store import Transaction  # noqa: E402
from bindery.store import revisions as revision_store  # noqa: E402
from bindery.store import spaces as space_store  # noqa: E402
from bindery.store import translations as translation_store  # noqa: E402
from bindery.store.spaces import Space  # noqa: E402
from bindery.store.translations import Ending, Translation  # noqa: E402
from tests.api.translator_server import KEY, translator_server  # noqa: E402
from tests.repository.org_item import ensure_org  # noqa: E402

SENTENCES = (
    "Fluentd collects events from many sources and routes them to many outputs.",
    "Configure the buffer so that chunks are flushed every few seconds.",
    "Use the **retry** settings when the destination is temporarily unavailable.",
)


def _paragraph(text: str) -> dict[str, Any]:
    return {
        "object": "block",
        "type": "paragraph",
        "data": {},
        "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}],
    }


def _document(number: int) -> dict[str, Any]:
    return {
        "object": "document",
        "data": {},
        "nodes": [_paragraph(f"{s} (page {number})") for s in SENTENCES],
    }


def _source(pages: int) -> tuple[Space, float]:
    ensure_org("bench-org")
    now = clock.now_iso()
    space = Space(
        id="bench-source",
        org_id="bench-org",
        created_at=now,
        updated_at=now,
        position=between(None, None),
        title="Bench handbook",
        revision="bench-r0",
    )
    Transaction(space_store.create_space_ops(space)).commit()
    value = {
        "pages": [
            {"id": f"p{i}", "type": "document", "title": f"Page number {i}", "slug": f"page-{i}", "pages": []}
            for i in range(pages)
        ],
        "files": [],
        "reusableContents": [],
        "variables": {},
    }
    started = time.perf_counter()
    revision = commit_revision(
        space.id, [space.revision], value, {f"p{i}": _document(i) for i in range(pages)}
    )
    space = advance_space(space, space.revision, revision)
    return space, time.perf_counter() - started


def _run(translation: Translation) -> tuple[Any, float, dict[str, int]]:
    assert translation_store.claim(translation, clock.now_iso(), "2000-01-01T00:00:00.000Z")
    with counting_requests() as counts:
        started = time.perf_counter()
        outcome = run(translation)
        seconds = time.perf_counter() - started
    state = translation_store.put_state(translation.id, translation.job or "", outcome.state)
    assert translation_store.end(
        translation,
        Ending(at=clock.now_iso(), next_job=None, state_object=state, result_revision=outcome.revision),
        rerun_seen=False,
    )
    return outcome, seconds, dict(sorted(counts.items()))


def measure(pages: int) -> dict[str, Any]:
    source, baseline = _source(pages)
    now = clock.now_iso()
    translation = Translation(
        id="bench-t",
        org_id="bench-org",
        created_at=now,
        updated_at=now,
        created_by="u",
        source_space=source.id,
        source_language="en",
        language="fr",
        job="job-1",
    )
    Transaction(translation_store.create_ops(translation)).commit()
    full, full_seconds, full_requests = _run(translation)
    # One page edited, then an incremental run.
    stored = translation_store.get_translation("bench-org", "bench-t")
    assert stored is not None
    space = space_store.get_space(source.id)
    assert space is not None
    current = revision_store.get_revision(space.id, space.revision)
    assert current is not None
    value = revision_store.load_tree(current).value
    edited = commit_revision(space.id, [space.revision], value, {"p7": _document(100_000)})
    advance_space(space, space.revision, edited)
    Transaction(translation_store.queue_op(stored, "job-1", "job-2", clock.now_iso())).commit()
    stored.job = "job-2"
    incremental, _, incremental_requests = _run(stored)
    return {
        "pages": pages,
        "baseline_seconds": baseline,
        "full_seconds": full_seconds,
        "words": full.words,
        "full_requests": full_requests,
        "incremental_pages": len(incremental.pages),
        "incremental_words": incremental.words,
        "incremental_requests": incremental_requests,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.translation_bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--pages", type=int, default=1000)
    args = parser.parse_args(argv)
    with translator_server() as server:
        set_environment(BINDERY_TRANSLATION_BACKEND="libretranslate", BINDERY_TRANSLATION_API_KEY=KEY,
                        BINDERY_TRANSLATION_URL=server.url("libretranslate"))
        with in_process_aws():
            found = measure(args.pages)
    full_total = sum(found["full_requests"].values())
    incremental_total = sum(found["incremental_requests"].values())
    print(f"{found['pages']} pages, {found['words']} words")
    print(f"baseline (commit the source's pages): {found['baseline_seconds']:.2f} s")
    print(
        f"full run: {found['full_seconds']:.2f} s "
        f"(x{found['full_seconds'] / found['baseline_seconds']:.2f}), "
        f"{found['words'] / found['full_seconds']:.0f} words/s, DynamoDB requests {full_total} "
        f"{found['full_requests']}"
    )
    print(
        f"incremental run after a one-page edit: {found['incremental_pages']} page, "
        f"{found['incremental_words']} words, DynamoDB requests {incremental_total} "
        f"{found['incremental_requests']} (x{incremental_total / full_total:.2f} of the full run)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
