"""Lambda SnapStart (template.yaml, docs/deploy.md): Lambda initialises a function once per published
version, snapshots the environment, and starts later environments from the snapshot instead of running
the init phase again (imports included: most of a Python cold start).

Two runtime hooks keep that safe and worth it. Before the snapshot, the AWS clients are built, so that
botocore's service models are loaded into the default session and come with the snapshot. After each
restore the clients are dropped: the ones made before the snapshot hold its credentials and connections,
which every restored environment must make anew (its new clients reuse the loaded models). Ids, tokens
and retry jitter come from `secrets`/`os.urandom`, which stay unique across restored environments (the
`random` module's state would be the snapshot's, the same in each).
"""

from __future__ import annotations

from functools import cache

from bindery import aws


def before_snapshot() -> None:
    aws.dynamodb_table()
    aws.s3_client()
    aws.sqs_client()


def after_restore() -> None:
    aws.reset()


@cache
def register() -> bool:
    """Register the hooks once per process; False where the runtime has no SnapStart (tests, the local
    runner, `sam local`): there the clients are made on first use as always."""
    try:
        from snapshot_restore_py import (  # type: ignore[import-not-found]
            register_after_restore,
            register_before_snapshot,
        )
    except ImportError:
        return False
    register_before_snapshot(before_snapshot)
    register_after_restore(after_restore)
    return True
