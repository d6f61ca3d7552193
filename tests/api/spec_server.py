"""A real HTTP server on loopback that serves OpenAPI files the way a web server does, for the
processing worker's fetches (bindery.platform.remote_files over urllib): files with their content type, 404s,
redirects, and a route that never answers (a timeout the worker must give up on). No mocks between
the worker and the socket."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from tests.data_paths import ROOT
from tests.loopback_server import serving

OPENAPI_DATA = ROOT / "tests" / "data" / "openapi"


@dataclass
class SpecServer:
    base: str
    files: dict[str, bytes] = field(default_factory=dict)  # path -> bytes
    redirects: dict[str, str] = field(default_factory=dict)  # path -> Location
    hang: set[str] = field(default_factory=set)  # paths that never answer
    requests: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}"

    def serve_tree(self, directory: Path, under: str = "") -> None:
        """Every file under `directory` at `under/<its relative path>`."""
        for path in directory.rglob("*"):
            if path.is_file():
                name = f"/{under.strip('/')}/{path.relative_to(directory).as_posix()}".replace("//", "/")
                self.files[name] = path.read_bytes()


def _handler(server: SpecServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
            return

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            server.requests.append(path)
            if path in server.hang:
                server.release.wait()  # until the test ends: the client's timeout must fire first
                return
            if path in server.redirects:
                self.send_response(302)
                self.send_header("Location", server.redirects[path])
                self.end_headers()
                return
            data = server.files.get(path)
            if data is None:
                self.send_error(404)
                return
            self.send_response(200)
            kind = "application/json" if path.endswith(".json") else "application/yaml"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextmanager
def spec_server() -> Iterator[SpecServer]:
    state = SpecServer(base="")
    with serving(_handler(state)) as base:
        state.base = base
        try:
            yield state
        finally:
            state.release.set()  # the hanging requests end before the server stops
