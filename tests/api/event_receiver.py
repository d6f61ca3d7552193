"""A real HTTP receiver on loopback that does what an integration's endpoint must: verify each
delivery's signature and timestamp (bindery.domain.integrations.event_signatures.verify) and refuse what fails
(401), answer with the statuses a test queues (500s to force retries), and keep what it accepted."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from bindery.domain.integrations.event_signatures import verify
from tests.loopback_server import serving


@dataclass
class Receiver:
    secret: str
    url: str = ""
    statuses: list[int] = field(default_factory=list)  # answers to give first, in order; then 200
    accepted: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    raw: list[tuple[dict[str, str], bytes]] = field(default_factory=list)  # every request as received
    clock_skew: int = 0  # seconds added to the receiver's clock (a replay comes later)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
            return

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = dict(self.headers.items())
            receiver.raw.append((headers, body))
            if not verify(receiver.secret, headers, body, now=int(time.time()) + receiver.clock_skew):
                receiver.refused.append(body.decode())
                self.send_response(401)
                self.end_headers()
                return
            status = receiver.statuses.pop(0) if receiver.statuses else 200
            if status < 300:
                receiver.accepted.append(json.loads(body))
            self.send_response(status)
            self.end_headers()

    return Handler


@contextmanager
def event_receiver(secret: str) -> Iterator[Receiver]:
    receiver = Receiver(secret=secret)
    with serving(_handler(receiver)) as base:
        receiver.url = f"{base}/events"
        yield receiver
