"""Fixtures several API test modules share."""

from __future__ import annotations

import pytest

from tests.api.event_receiver import event_receiver
from tests.api.integration_support import SECRET
from tests.settings_environment import changed_environment


@pytest.fixture
def receiver():
    """A local HTTP receiver verifying each delivery's signature with SECRET (on loopback, so private
    hosts are allowed while it runs)."""
    with changed_environment({"BINDERY_ALLOW_PRIVATE_HOSTS": "1"}), event_receiver(SECRET) as found:
        yield found
