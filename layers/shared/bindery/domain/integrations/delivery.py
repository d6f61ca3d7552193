"""Delivering an integration event (IntegrationEventWorker): one signed HTTP POST per attempt.

Where: the integration's development tunnel (`PUT …/dev`) while development mode is on, for the owner
organization's installations only unless `all` was set; otherwise the `endpoint` it published (a
Bindery extension of the publish body). Bindery runs no integration code, so without either there is
nowhere to deliver: the attempt says so in the trace and the event is `failed` (no retry: nothing would
change by trying again). The URL is checked again before each attempt (bindery.platform.url_policy: DNS or the
settings may have changed since it was given).

How: the event's payload as JSON, signed (bindery.domain.integrations.event_signatures) with the
`SIGNING_SECRET` it
published, or else the signing secret its first publish generated (sealed_secrets.signer; an integration
last published before secrets were generated has none: `failed`, logged, no retry). A 2xx is
`success`; anything else, or no answer within the timeout, is logged as `failed` and raised; the worker
then hides the message for `backoff_seconds(attempt)` (growing with each attempt), so SQS delivers it
again after that and, after its maxReceiveCount, moves it to the dead-letter queue. Every attempt leaves
its lines in the event's trace.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from bindery.domain.integrations.event_signatures import headers
from bindery.domain.integrations.sealed_secrets import SIGNING_SECRET, signer
from bindery.platform import clock
from bindery.platform.config import settings
from bindery.platform.errors import BinderyError
from bindery.platform.messages import IntegrationEventMessage
from bindery.platform.url_policy import check_endpoint, check_url, redact
from bindery.store import integration_events as event_store
from bindery.store import integrations as integration_store
from bindery.store.integration_events import Event
from bindery.store.integrations import Integration

FIRST_BACKOFF_SECONDS = 30
MAX_BACKOFF_SECONDS = 12 * 3600  # SQS's longest visibility timeout


def backoff_seconds(attempt: int) -> int:
    """How long a failed attempt's message stays hidden: 30 s, 2 min, 8 min… (four times longer each
    time), so an endpoint that is down for a while is not hammered and one that blipped is soon retried."""
    return int(min(FIRST_BACKOFF_SECONDS * 4 ** max(attempt - 1, 0), MAX_BACKOFF_SECONDS))


class DeliveryFailed(Exception):
    """An attempt that may succeed when tried again (the worker reports it as a batch item failure)."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_: object, **__: object) -> None:
        return None  # a redirect is an answer like any other non-2xx: never followed with the payload


def _log(message: str, level: str = "info") -> dict[str, str]:
    return {"message": message, "timestamp": clock.now_iso(), "level": level}


def _target(integration: Integration, event: Event) -> tuple[str, str] | None:
    """Where the event goes, and the field that named it: the tunnel while development mode covers the
    event's organization, otherwise the published endpoint."""
    if integration.dev_tunnel and (integration.dev_all or event.org_id == integration.owner_id):
        return integration.dev_tunnel, "tunnelUrl"
    if integration.endpoint:
        return integration.endpoint, "endpoint"
    return None


def deliver(message: IntegrationEventMessage, *, attempt: int) -> str:
    event = event_store.get_event(message.integration, message.eventId)
    if event is None or event.delivery == "success":
        return "nothing to do"
    integration = integration_store.get_integration(message.integration)
    if integration is None:
        return "integration unpublished"
    found = _target(integration, event)
    if found is None:
        said = _log("No endpoint: the integration published none, development mode is off for this "
                    "installation's organization, and Bindery runs no integration code", "error")
        event_store.record_attempt(event, [said], "failed")
        return "no endpoint"
    target, field = found
    signing = signer(integration)
    if signing is None:
        said = _log(f"Not sent: the integration has no {SIGNING_SECRET} secret to sign deliveries with, "
                    "and no generated one: publish it again to have one generated", "error")
        event_store.record_attempt(event, [said], "failed")
        return "no signing secret"
    body = json.dumps(event.payload, separators=(",", ":"), sort_keys=True).encode()
    start = _log(f"Attempt {attempt}: POST {redact(target)}, signed with the "
                 f"{'published SIGNING_SECRET' if signing.source == SIGNING_SECRET else 'generated secret'}",
                 "debug")
    try:
        if field == "endpoint":
            check_endpoint(target, field)
        else:
            check_url(target, field, files_allowed=False)
        signed = headers(signing.secret, int(clock.now().timestamp()), body)
        request = urllib.request.Request(target, data=body, method="POST",  # noqa: S310 - checked above
                                         headers={"Content-Type": "application/json", **signed})
        opener = urllib.request.build_opener(_NoRedirects)
        with opener.open(request, timeout=settings().integration_delivery_timeout) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (OSError, BinderyError) as error:
        said = _log(f"Attempt {attempt} failed: {error}", "error")
        event_store.record_attempt(event, [start, said], "failed")
        raise DeliveryFailed(str(error)) from None
    if 200 <= status < 300:
        said = _log(f"Attempt {attempt}: delivered ({status})")
        event_store.record_attempt(event, [start, said], "success")
        return "delivered"
    said = _log(f"Attempt {attempt} failed: the endpoint answered {status}", "error")
    event_store.record_attempt(event, [start, said], "failed")
    raise DeliveryFailed(f"the endpoint answered {status}")
