"""Fixtures several API test modules share."""

from __future__ import annotations

import pytest

from tests.api.event_receiver import event_receiver
from tests.api.git_sync_support import set_env
from tests.api.integration_support import SECRET


@pytest.fixture
def receiver():
    """A local HTTP receiver verifying each delivery's signature with SECRET (on loopback, so private
    hosts are allowed while it runs)."""
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    with event_receiver(SECRET) as found:
        yield found
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)
