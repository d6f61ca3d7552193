"""`python -m local.server` (`make run`): the whole API on http://127.0.0.1:${BINDERY_PORT:-3000}/v1.

No AWS account and no Docker: HTTP requests go to the in-process gateway (local/gateway.py), which routes
them as template.yaml declares, runs the TOKEN authorizer and invokes the function handlers with REST
proxy events; local/http_handler.py is the HTTP side. Storage comes from local/engine.py. Background work
goes through SQS (moto's, in this process) and is delivered to the worker functions
(local/background_work.py). This module sets the runner's environment, prepares storage, bootstraps the
first start and runs the server until Ctrl-C or SIGTERM. See docs/local-runner.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The layer is what Lambda mounts at /opt/python; the repo root makes `local` importable from anywhere.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layers" / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import atexit
import io
import os
import secrets
import signal
from collections.abc import Callable
from types import FrameType

from botocore.exceptions import BotoCoreError, ClientError

from local import background_work
from local import engine as engines
from local.environments import Environments, default_size
from local.gateway import Gateway
from local.http_handler import Handler, listen


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
    from bindery.platform import admin

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
    from bindery.platform import aws
    from bindery.platform.config import settings

    aws.reset()
    conf = settings()
    print(url_policy_banner(conf.git_allow_file_urls, conf.allow_private_hosts))
    print(f"Storage: {engine.description}")
    print(f"Blobs: {engines.ensure_blob_store(blobs, conf.blob_bucket)}")
    try:
        if engines.ensure_table(conf.table_name):
            print(f"Created table {conf.table_name!r} from template.yaml")
        _bootstrap(url)
    except (BotoCoreError, ClientError) as error:
        raise engines.EngineError(f"cannot use table {conf.table_name!r} at {engine.endpoint}: {error}") \
            from None


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
    httpd = listen()
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
        stop_background = background_work.start(engine, Handler.dispatch_lock)
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
