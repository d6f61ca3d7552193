"""Settings a deployment must give: a missing one is named, so the operator knows what to set."""

from __future__ import annotations

from typing import get_args

import pytest

from bindery.platform.config import RequiredQueue, settings


@pytest.mark.parametrize("name", get_args(RequiredQueue))
def test_a_required_queue_is_its_url_or_an_error_naming_its_variable(name, monkeypatch):
    variable = f"BINDERY_{name.upper()}"
    monkeypatch.setenv(variable, "https://sqs.example/queue")
    settings.cache_clear()
    assert settings().required_queue_url(name) == "https://sqs.example/queue"
    monkeypatch.delenv(variable)
    settings.cache_clear()
    with pytest.raises(RuntimeError, match=rf"^{variable} is not set$"):
        settings().required_queue_url(name)
    settings.cache_clear()
