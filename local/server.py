"""`python -m local.server` (`make run`): the whole API on http://127.0.0.1:${BINDERY_PORT:-3000}/v1.

No AWS account and no Docker: HTTP requests go to the in-process gateway (local/gateway.py), which routes
them as template.yaml declares, runs the TOKEN authorizer and invokes the function handlers with REST
proxy events. Storage comes from local/engine.py. Background work goes through SQS (moto's, in this
process) and is delivered to the worker functions by local/queue_delivery.py. See docs/local-runner.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The layer is what Lambda mounts at /opt/python; the repo root makes `local` importable from anywhere.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layers" / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import atexit
import io
import json
import os
import secrets
import signal
import threading
import time
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import FrameType
from typing import Any, ClassVar

from botocore.exceptions import BotoCoreError, ClientError

from local import blob_files
from local import engine as engines
from local.environments import Environments, default_size
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
    # not thread-safe either, is made per thread by bindery.aws). Queue deliveries and the TTL stream
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


def _cursor_secret(data_dir: Path) -> str:
    """A random secret kept in the data dir, so page cursors stay valid across restarts."""
    path = data_dir / "cursor-secret"
    if path.exists():
        secret = path.read_text().strip()
        if len(secret) >= 32:
            return secret
    secret = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(secret + "\n")
    return secret


def _bootstrap(url: str) -> None:
    from bindery import admin

    issued = admin.bootstrap(os.environ.get("BINDERY_BOOTSTRAP_TOKEN") or None)
    if issued is None:
        if os.environ.get("BINDERY_BOOTSTRAP_TOKEN"):
            print("Note: BINDERY_BOOTSTRAP_TOKEN only applies on the first start and this table was "
                  "bootstrapped before; docs/local-runner.md shows how to issue more tokens.")
        print(f"API URL: {url}")
        return
    rule = "=" * 72
    print("\n".join([
        rule,
        "First start: created an admin user, an organization and an API token.",
        f"  API URL:         {url}",
        f"  Organization id: {issued.org_id}",
        f"  User id:         {issued.user_id}",
        f"  API token:       {issued.token}",
        "The token is shown only this once: it is stored hashed. Try:",
        f'  curl -H "Authorization: Bearer {issued.token}" {url}/orgs',
        rule,
    ]))


def _raise_exit(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


class _Server(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: 64 clients connecting at once would see SYNs dropped and
    # retried a second or more later (the tail latency under load), where API Gateway accepts them all.
    request_queue_size = 1024
    daemon_threads = True


def _listen() -> ThreadingHTTPServer:
    raw_port = os.environ.get("BINDERY_PORT") or "3000"
    if not raw_port.isdigit():
        raise engines.EngineError(f"BINDERY_PORT must be a port number, not {raw_port!r}")
    try:
        httpd = _Server(("127.0.0.1", int(raw_port)), Handler)
    except OSError as error:
        raise engines.EngineError(f"cannot listen on 127.0.0.1:{raw_port}: {error} (set BINDERY_PORT)") \
            from None
    return httpd


def url_policy_banner(file_urls: bool, private_hosts: bool) -> str:
    """The banner line saying which outbound URL policies this runner relaxes (a deployed stack relaxes
    none): with them on, an editor can make Git Sync read any repository on this machine and make the
    functions fetch from private addresses, which is fine on one developer's laptop and must be visible."""
    relaxed = [name for name, on in (("BINDERY_GIT_ALLOW_FILE_URLS=1: Git Sync may use file:// repositories",
                                      file_urls),
                                     ("BINDERY_ALLOW_PRIVATE_HOSTS=1: fetches may reach loopback and private "
                                      "addresses", private_hosts)) if on]
    if not relaxed:
        return "URL policy: as deployed (no file:// repositories, no private addresses)"
    return (f"URL policy: RELAXED for local use ({'; '.join(relaxed)}); set them to 0 for a deployed "
            f"stack's policy")


def _prepare(engine: engines.Engine, blobs: engines.BlobStore, url: str) -> None:
    """Table and blob store as template.yaml declares them, then the first-start bootstrap."""
    engines.configure(engine, blobs)
    from bindery import aws
    from bindery.config import settings

    aws.reset()
    conf = settings()
    print(url_policy_banner(conf.git_allow_file_urls, conf.allow_private_hosts))
    print(f"Storage: {engine.description}")
    print(f"Blobs: {engines.ensure_blob_store(blobs, conf.blob_bucket, conf.region)}")
    try:
        if engines.ensure_table(conf.table_name):
            print(f"Created table {conf.table_name!r} from template.yaml")
        _bootstrap(url)
    except (BotoCoreError, ClientError) as error:
        raise engines.EngineError(f"cannot use table {conf.table_name!r} at {engine.endpoint}: {error}") \
            from None


def _start_background_work(engine: engines.Engine) -> Callable[[], None]:
    """The template's queues on moto's SQS (the engine's own when it is moto), their URLs in the
    environment, and a delivery thread per SQS event source; the function that stops them."""
    from bindery import aws
    from local import queue_delivery, ttl_stream

    stop_server: Callable[[], None] = lambda: None  # noqa: E731
    if not os.environ.get("BINDERY_SQS_ENDPOINT"):
        if engine.kind == "moto":
            os.environ["BINDERY_SQS_ENDPOINT"] = engine.endpoint
        else:
            try:
                os.environ["BINDERY_SQS_ENDPOINT"], stop_server = queue_delivery.start_sqs_server()
            except ImportError as error:
                print(f"WARNING: no background work (Git Sync, search indexing): moto's server is needed "
                      f"for in-process SQS: {error}", file=sys.stderr)
                return stop_server
    aws.reset()
    environment, deliveries = queue_delivery.start_local(aws.sqs_client(), Handler.dispatch_lock)
    os.environ.update(environment)
    aws.reset()
    deliveries.start()
    workers = ", ".join(sorted({delivery.source.function for delivery in deliveries.wired}))
    print(f"Background work: SQS at {os.environ['BINDERY_SQS_ENDPOINT']}, delivered in process to {workers}")
    backend = os.environ.get("BINDERY_TRANSLATION_BACKEND")
    where = os.environ.get("BINDERY_TRANSLATION_URL") or "(no URL)"
    print(f"Translation runs: {backend} at {where}" if backend
          else "Translation runs: no backend (set BINDERY_TRANSLATION_BACKEND and BINDERY_TRANSLATION_URL; "
               "docs/translations.md): runs fail with BACKEND_NOT_CONFIGURED")
    # Neither moto nor DynamoDB Local expires items or has streams: the runner plays DynamoDB's TTL
    # process and delivers its REMOVE records to the stream's functions (the deleted-space purge).
    sweeper = ttl_stream.Sweeper(Handler.dispatch_lock)
    sweeper.start()
    print(f"TTL: expired items removed every {ttl_stream.SWEEP_SECONDS} s, stream delivered in process")

    def stop() -> None:
        sweeper.stop()
        deliveries.stop()
        stop_server()

    return stop


def _also(first: Callable[[], None], then: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        then()
        first()

    return both


def main() -> None:
    data_dir = Path(os.environ.get("BINDERY_DATA_DIR") or ".bindery")
    Handler.quiet = os.environ.get("BINDERY_QUIET") == "1"
    # Progress lines show up as they happen even when stdout is a pipe (tests, the conformance suite).
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    signal.signal(signal.SIGTERM, _raise_exit)
    signal.signal(signal.SIGINT, _raise_exit)
    # Bound first: a busy port fails before an engine starts, and port 0 picks a free one.
    httpd = _listen()
    port = httpd.server_address[1]
    url = f"http://127.0.0.1:{port}/v1"
    data_dir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("BINDERY_PUBLIC_URL", url)
    os.environ.setdefault("BINDERY_APP_URL", f"http://127.0.0.1:{port}/app")  # links, not served here
    os.environ.setdefault("BINDERY_SITES_URL", f"http://127.0.0.1:{port}/sites")  # published sites' pages
    if not os.environ.get("BINDERY_CURSOR_SECRET"):
        os.environ["BINDERY_CURSOR_SECRET"] = _cursor_secret(data_dir)
    # Git Sync may use repositories on this machine here (file://, localhost); deployed stacks may not.
    os.environ.setdefault("BINDERY_GIT_ALLOW_FILE_URLS", "1")
    os.environ.setdefault("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    # No X-Ray daemon locally; the functions' per-invocation JSON lines and EMF metrics would repeat the
    # access log above (docs/observability.md says how to see them: set these variables).
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")

    engine = engines.start(data_dir)
    atexit.register(engine.stop)
    stop_background: Callable[[], None] = lambda: None  # noqa: E731
    try:
        _prepare(engine, engines.blob_store(engine, data_dir), url)
        stop_background = _start_background_work(engine)
        Handler.gateway = Gateway(cache_authorizer=True)
        size = default_size()
        if size:
            # After the engine and the queues: the environments inherit their endpoints from os.environ.
            Handler.environments = environments = Environments(size)
            stop_background = _also(stop_background, environments.stop)
        described = f"{size}, processes {Handler.environments.pids()}" if Handler.environments else \
            "none (requests run in this process, one at a time)"
        print(f"Execution environments: {described}")
        print(f"Published sites at {os.environ['BINDERY_SITES_URL']}/{{organization}}/{{site}}")
        print(f"Bindery API listening on {url}", flush=True)
        httpd.serve_forever()
    except SystemExit as stop:
        # Ctrl-C and SIGTERM end here: a clean stop, reported as such.
        if stop.code not in (0, None, 128 + signal.SIGINT, 128 + signal.SIGTERM):
            raise
    finally:
        # A second Ctrl-C must not interrupt stopping the engine halfway.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        httpd.server_close()
        stop_background()  # before the engine: a delivery in progress still needs its table
        engine.stop()


if __name__ == "__main__":
    main()
