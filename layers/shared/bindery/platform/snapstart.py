"""Lambda SnapStart (template.yaml, docs/deploy.md): Lambda initialises a function once per published
version, snapshots the environment, and starts later environments from the snapshot instead of running
the init phase again (imports included: most of a Python cold start).

Two runtime hooks keep that safe and worth it. Before the snapshot, the AWS clients are built, so that
botocore's service models are loaded into the default session and come with the snapshot, and so is
what each handler defers to its first invocations where there is no snapshot (`register(*warm)`: the
X-Ray tracer, an API function's rarely used routes): with SnapStart that work belongs in the snapshot,
not after every restore. After each
restore the clients are dropped: the ones made before the snapshot hold its credentials and connections,
which every restored environment must make anew (its new clients reuse the loaded models). Ids, tokens
and retry jitter come from `secrets`/`os.urandom`, which stay unique across restored environments (the
`random` module's state would be the snapshot's, the same in each).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from bindery.platform import aws


def before_snapshot() -> None:
    aws.dynamodb_table()
    aws.s3_client()
    aws.sqs_client()


def after_restore() -> None:
    aws.reset()


def register(*warm: Callable[[], object]) -> bool:
    """Register the hooks (once per process) and `warm` to run before the snapshot too; False where the
    runtime has no SnapStart (tests, the local runner, `sam local`): there the clients are made, and the
    warm-up work done, on first use as always."""
    register_before_snapshot = _runtime_hooks()
    if register_before_snapshot is None:
        return False
    for hook in warm:
        register_before_snapshot(hook)
    return True


@cache
def _runtime_hooks() -> Callable[[Callable[[], object]], Any] | None:
    """Register this module's hooks once; the runtime's `register_before_snapshot` (None without one)."""
    try:
        from snapshot_restore_py import (  # type: ignore[import-not-found]
            register_after_restore,
            register_before_snapshot,
        )
    except ImportError:
        return None
    register_before_snapshot(before_snapshot)
    register_after_restore(after_restore)
    hook: Callable[[Callable[[], object]], Any] = register_before_snapshot
    return hook
