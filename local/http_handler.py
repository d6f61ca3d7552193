"""The runner's HTTP side: a threaded server on 127.0.0.1 whose handler reads each request off the socket
(Content-Length or chunked bodies, kept only up to API Gateway's limit), hands it to the in-process gateway
or to an execution environment, and writes the reply with keep-alive framing and one access-log line."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from local import blob_files
from local.engine import EngineError
from local.environments import Environments
from local.gateway import API_GATEWAY_MAX_BODY, Gateway, Reply

_READ_CHUNK = 1024 * 1024
# Responses that must not carry a body, hence no Content-Length either (RFC 9110).
_NO_BODY = {204, 304}
# Framing is the runner's job: the function's own values for these would be wrong or meaningless here.
_HOP_BY_HOP = {"content-length", "transfer-encoding", "connection", "keep-alive"}


class _BadRequest(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: every response carries a Content-Length
    server_version = "Bindery-local"
    # A response leaves in one write (buffered, flushed after each request) with Nagle off: written in
    # pieces, a kept-alive connection would wait ~40 ms on every response for the client's delayed ACK.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    gateway: ClassVar[Gateway]
    environments: ClassVar[Environments | None] = None
    quiet: ClassVar[bool] = False
    # Without execution environments (BINDERY_ENVIRONMENTS=0), one event at a time in this process:
    # Powertools' resolver keeps the current event on the shared app object (boto3's DynamoDB resource,
    # not thread-safe either, is made per thread by bindery.platform.aws). Queue deliveries and the TTL stream
    # always take it (they run in this process).
    dispatch_lock: ClassVar[threading.Lock] = threading.Lock()

    def parse_request(self) -> bool:
        self._started = time.perf_counter()  # the request line is in: time the request from here
        return super().parse_request()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # Requests the gateway never sees (malformed, unknown method) still get the API's error shape.
        self.close_connection = True
        if code == HTTPStatus.NOT_IMPLEMENTED:
            # http.server's answer to a method it has no do_* for (TRACE, QUERY…): API Gateway refuses
            # those, it does not fail on them, so this is the client's error, not a 5xx.
            code, message = HTTPStatus.METHOD_NOT_ALLOWED, f"Method {self.command} is not allowed"
        self._send(_error_reply(code, message or HTTPStatus(code).phrase))

    def _serve(self) -> None:
        try:
            body = self._read_body()
        except _BadRequest as error:
            self.close_connection = True
            reply = _error_reply(400, str(error))
        else:
            reply = (blob_files.serve(self.command, self.path) if blob_files.is_blob_path(self.path)
                     else self._dispatch(body))
        self._send(reply)

    def _dispatch(self, body: bytes | None) -> Reply:
        headers = dict(self.headers.items())
        try:
            if self.environments is not None:
                return self.environments.dispatch(self.command, self.path, headers, body)
            with self.dispatch_lock:
                return self.gateway.dispatch(self.command, self.path, headers, body)
        except Exception:  # noqa: BLE001 - a crashing function is a 502 from API Gateway, not a dropped connection
            traceback.print_exc()
            return _error_reply(502, "Internal server error")

    def _read_body(self) -> bytes | None:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked()
        length = self.headers.get("Content-Length")
        if length is None:
            return None
        if not length.strip().isdigit():
            raise _BadRequest("Invalid Content-Length")
        return self._read(int(length), bytearray()) or None

    def _read(self, size: int, kept: bytearray) -> bytes:
        """Read `size` bytes, keeping at most one byte over the gateway's limit: that is enough for it to
        answer 413, and draining the rest keeps the connection usable without holding it in memory."""
        while size > 0:
            chunk = self.rfile.read(min(size, _READ_CHUNK))
            if not chunk:
                raise _BadRequest("The request body ended early")
            size -= len(chunk)
            room = API_GATEWAY_MAX_BODY + 1 - len(kept)
            if room > 0:
                kept += chunk[:room]
        return bytes(kept)

    def _read_chunked(self) -> bytes | None:
        kept = bytearray()
        while True:
            line = self.rfile.readline(1024).split(b";", 1)[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise _BadRequest("Invalid chunked encoding") from None
            if size == 0:
                break
            self._read(size, kept)
            self.rfile.readline(16)  # the CRLF after each chunk
        while self.rfile.readline(8192).strip():  # trailers, up to the blank line
            pass
        return bytes(kept) or None

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        for key, value in reply.headers.items():
            if key.lower() not in _HOP_BY_HOP:
                self.send_header(key, value)
        if reply.status not in _NO_BODY:
            self.send_header("Content-Length", str(len(reply.body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if reply.status not in _NO_BODY and self.command != "HEAD":
            self.wfile.write(reply.body)
        if not self.quiet:
            path = (getattr(self, "path", "") or "").split("?", 1)[0]
            elapsed = (time.perf_counter() - getattr(self, "_started", time.perf_counter())) * 1000
            print(f"{self.command} {path} {reply.status} {elapsed:.1f}ms", file=sys.stderr, flush=True)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # _serve logs one line per request, with its duration

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if not self.quiet:
            super().log_message(format, *args)


# The methods API Gateway knows (what ANY stands for) all go to the gateway, which answers for the ones
# no route accepts as API Gateway does; any other method gets a 405 from send_error.
for _method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
    setattr(Handler, f"do_{_method}", Handler._serve)


def _error_reply(status: int, message: str) -> Reply:
    body = json.dumps({"error": {"code": status, "message": message}}, separators=(",", ":")).encode()
    return Reply(status, {"Content-Type": "application/json"}, body)


class _Server(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: 64 clients connecting at once would see SYNs dropped and
    # retried a second or more later (the tail latency under load), where API Gateway accepts them all.
    request_queue_size = 1024
    daemon_threads = True


def listen() -> ThreadingHTTPServer:
    """Bound on 127.0.0.1:$BINDERY_PORT (3000; 0 picks a free port), not yet serving."""
    raw_port = os.environ.get("BINDERY_PORT") or "3000"
    if not raw_port.isdigit():
        raise EngineError(f"BINDERY_PORT must be a port number, not {raw_port!r}")
    try:
        httpd = _Server(("127.0.0.1", int(raw_port)), Handler)
    except OSError as error:
        raise EngineError(f"cannot listen on 127.0.0.1:{raw_port}: {error} (set BINDERY_PORT)") \
            from None
    return httpd
