"""A Git server over smart HTTP (dulwich's WSGI application) for the repositories under one directory.

`make test-sam` runs the functions in containers, which cannot read the `file://` repositories the
conformance suite makes on this machine: it serves that directory on Docker's bridge address instead,
fetch and push alike, as a Git host would. Nothing outside the directory is served (dulwich's
FileSystemBackend refuses paths that leave its root).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from socketserver import ThreadingMixIn

from dulwich.server import BackendRepo, FileSystemBackend
from dulwich.web import WSGIRequestHandlerLogger, WSGIServerLogger, make_wsgi_chain


class _Repositories(FileSystemBackend):
    """dulwich's web application hands the backend the URL's path, '/'-prefixed, which os.path.join
    would take as absolute (and refuse, as outside the root): it is relative to the root here. (The
    upload and receive handlers hand it bytes.)"""

    def open_repository(self, path: str) -> BackendRepo:
        return super().open_repository(os.fsdecode(path).lstrip("/"))


class _ThreadingServer(ThreadingMixIn, WSGIServerLogger):
    daemon_threads = True


@dataclass
class GitHttpServer:
    url: str
    root: Path
    _server: _ThreadingServer
    _thread: threading.Thread

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def serve(root: Path, host: str) -> GitHttpServer:
    """Serves the repositories under `root` at `http://host:<free port>/<path under root>`."""
    server = _ThreadingServer((host, 0), WSGIRequestHandlerLogger)
    server.set_app(make_wsgi_chain(_Repositories(str(root))))
    thread = threading.Thread(target=server.serve_forever, name="git-http", daemon=True)
    thread.start()
    return GitHttpServer(f"http://{host}:{server.server_address[1]}", root, server, thread)
