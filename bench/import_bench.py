"""Git Sync import of the fluentd corpus (tests/corpus/fluentd-docs), in process against moto.

    python -m bench.import_bench [--repeat 5] [--corpus PATH]

Measures, in the same run:
- baseline: parsing every Markdown page of the corpus with `markdown_to_document` — the least any
  import must do;
- convert: `import_repository` (the whole repository → tree, documents, files);
- import: convert + `commit_revision` + `advance_space` into an empty space (what the Git Sync worker
  does after fetching), with its DynamoDB and S3 requests;
- re-import: the same repository again on top of the first import: unchanged documents and files are
  content-addressed, so only the tree and the revision item are new.
Each time is the median over `--repeat` runs and is printed as a ratio to the baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from bench.timing import median_ms

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

CORPUS = ROOT / "tests" / "corpus" / "fluentd-docs"


def read_repository(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and ".git" not in path.relative_to(root).parts}



def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 - one linear script
    parser = argparse.ArgumentParser(prog="python -m bench.import_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    from bench.environment import in_process_aws, set_environment

    set_environment()

    from bindery.domain.git_sync.import_changes import changes
    from bindery.domain.revisions import advance_space, commit_revision
    from bindery.engines.content.markdown import markdown_to_document
    from bindery.engines.content.tree import Tree, empty_tree
    from bindery.engines.gitsync.importer import import_repository
    from bindery.platform.aws import counting_requests
    from bindery.store import revisions as revision_store
    from bindery.store import spaces as space_store
    from tests.client import ApiClient

    files = read_repository(args.corpus)
    pages = [data.decode() for path, data in files.items()
             if path.endswith(".md") and "/.gitbook/" not in path]

    def baseline() -> None:
        for source in pages:
            markdown_to_document(source)

    results: list[tuple[str, float, str]] = []
    with in_process_aws():
        api = ApiClient()
        who = api.org_admin("Bench", "Bench Org")
        created = api.post(f"/orgs/{who.org_id}/spaces", body={"title": "fluentd"}, token=who.token)
        space_id = created.json()["id"]

        def commit(previous_tree: Any) -> dict[str, int]:
            imported = import_repository(files, previous=previous_tree)
            stored = changes(imported, previous_tree or Tree(empty_tree()))  # as the Git Sync worker does
            space = space_store.get_space(space_id)
            assert space is not None
            with counting_requests() as dynamodb, counting_requests("s3") as s3:
                revision = commit_revision(
                    space_id, [space.revision], stored.tree, stored.documents,
                    reusable_documents=stored.reusable_documents, files=stored.files)
                advance_space(space, space.revision, revision)
            return {**{f"dynamodb {k}": v for k, v in dynamodb.items()},
                    **{f"s3 {k}": v for k, v in s3.items()}}

        base_ms = median_ms(baseline, args.repeat)
        results.append((f"baseline: markdown_to_document of {len(pages)} pages", base_ms, ""))
        convert_ms = median_ms(lambda: import_repository(files), args.repeat)
        results.append(("convert: import_repository", convert_ms, ""))
        started = time.perf_counter()
        first = commit(None)
        results.append(("import into an empty space", (time.perf_counter() - started) * 1000,
                        ", ".join(f"{k} {v}" for k, v in sorted(first.items()))))
        space = space_store.get_space(space_id)
        assert space is not None
        revision = revision_store.get_revision(space_id, space.revision)
        assert revision is not None
        current = revision_store.load_tree(revision)
        started = time.perf_counter()
        again = commit(current)
        results.append(("re-import, nothing changed", (time.perf_counter() - started) * 1000,
                        ", ".join(f"{k} {v}" for k, v in sorted(again.items()))))
    print(f"corpus: {args.corpus} ({len(files)} files, {len(pages)} Markdown pages)")
    print(f"{'step':<52}{'ms':>10}{'ratio':>8}  requests")
    for name, ms, requests in results:
        print(f"{name:<52}{ms:>10.1f}{ms / base_ms:>8.2f}  {requests}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
