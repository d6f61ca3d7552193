"""What `make test-sam` (local.sam_local) runs against `sam local`: the conformance suite against
start-api, the queues delivered through start-lambda, and `sam local invoke` of each worker."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

from local import git_http, queue_delivery, sample_events
from local.template import ROOT, Template, load

if TYPE_CHECKING:
    from mypy_boto3_sqs.client import SQSClient

INVOKE_SECONDS = 300
# What each worker answers its sample event (events/, placeholder ids that name nothing in the new
# table): a message about nothing is done with, not retried.
NOTHING_FAILED: dict[str, Any] = {"batchItemFailures": []}
EXPECTED_REPLIES: dict[str, Any] = {}
# SAM labels every container it runs for a function.
SAM_CONTAINERS = "label=sam.cli.container.type=lambda"


def local_session() -> boto3.session.Session:
    """For the local engines and sam's Lambda endpoint, which take any credentials."""
    return boto3.session.Session(region_name="us-east-1", aws_access_key_id="local",
                                 aws_secret_access_key="local")  # noqa: S106 - placeholders


def remove_containers() -> None:
    """SAM removes its containers when it stops; this removes any a killed sam left behind."""
    ids = subprocess.run(["docker", "ps", "-aq", "--filter", SAM_CONTAINERS], capture_output=True, text=True,
                         check=False).stdout.split()
    if ids:
        subprocess.run(["docker", "rm", "-f", *ids], capture_output=True, check=False)


def _lambda_handler(endpoint: str, function: str) -> Callable[[dict[str, Any], Any], Any]:
    client = local_session().client("lambda", endpoint_url=endpoint, config=Config(
        read_timeout=INVOKE_SECONDS, retries={"max_attempts": 0}))

    def invoke(event: dict[str, Any], _context: Any) -> Any:
        response = client.invoke(FunctionName=function, Payload=json.dumps(event).encode())
        reply = json.loads(response["Payload"].read() or b"null")
        if response.get("FunctionError"):
            raise RuntimeError(f"{function} failed: {reply}")
        return reply
    return invoke


def deliveries_through(endpoint: str, sqs: SQSClient, template: Template) -> queue_delivery.Deliveries:
    """Lambda's SQS event source mapping for each worker, invoking it through start-lambda's endpoint
    (the queues are those `provision` made, found by name)."""
    wired = []
    for source in queue_delivery.event_sources(template):
        url = sqs.get_queue_url(QueueName=f"bindery-{source.queue}")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        wired.append(queue_delivery.Delivery(source, queue_delivery.Queue(url, arn),
                                             _lambda_handler(endpoint, source.function)))
    return queue_delivery.Deliveries(sqs, wired, threading.Lock())


def run_conformance(url: str, token: str, admin_env: dict[str, str], timeout: float, *,
                    host_for_functions: str, git: git_http.GitHttpServer) -> int:
    """The official-client suite against `url`: 0 when it passes, else 1. API Gateway's stage (/v1) is
    no part of the paths `sam local start-api` serves, so the suite is told to leave it out. The
    functions run in containers: the servers a test starts for them (webhook receivers) listen on
    `host_for_functions`, and its Git repositories are made under `git.root` (the suite's temporary
    directory) and imported through `git`, over HTTP, since no container sees this machine's files."""
    conformance = ROOT / "conformance"
    if not (conformance / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=conformance, check=True)
    server = {"url": url, "token": token, "adminEnv": admin_env, "stageInPath": False,
              "hostForFunctions": host_for_functions, "gitServer": {"root": str(git.root), "url": git.url}}
    env = {**os.environ, "BINDERY_CONFORMANCE_SERVER": json.dumps(server), "TMPDIR": str(git.root),
           "PYTHON": str(ROOT / ".venv" / "bin" / "python")}
    every = " ".join(sorted(str(path.relative_to(conformance))
                            for path in (conformance / "test").glob("*.test.mjs")))
    files = os.environ.get("SAM_CONFORMANCE", every).split()
    done = subprocess.run(["node", "--test", *files], cwd=conformance, env=env, timeout=timeout, check=False)
    return 0 if done.returncode == 0 else 1


@dataclass
class SamLocal:
    sam: Callable[..., list[str]]
    env: dict[str, str]
    common: list[str]
    work: Path

    def invoke(self, function: str, event: Path) -> Any:
        """`sam local invoke`: the function's reply (its last line of standard output)."""
        done = subprocess.run(self.sam("local", "invoke", function, "-e", str(event), *self.common),
                              cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=INVOKE_SECONDS,
                              check=False)
        (self.work / f"invoke-{function}.log").write_text(done.stdout + done.stderr)
        lines = done.stdout.strip().splitlines()
        return json.loads(lines[-1]) if done.returncode == 0 and lines else None

    def invoke_workers(self, events: Path, lambda_endpoint: str) -> int:
        """Every worker (SQS or stream) with its sample event; the number whose reply is not the
        expected one. Zip workers through start-lambda's endpoint, in its warm containers: `sam local
        invoke` rebuilds the image of a layer defined in the template at every call (a minute here).
        The container-image worker, which has no layer, through `sam local invoke` itself."""
        failures = 0
        images = {name for name, resource in load().raw["Resources"].items()
                  if (resource.get("Properties") or {}).get("PackageType") == "Image"}
        for function, name in sample_events.worker_events(load()).items():
            event = events / name
            if function in images:
                reply = self.invoke(function, event)
            else:
                try:
                    reply = _lambda_handler(lambda_endpoint, function)(json.loads(event.read_text()), None)
                except RuntimeError as error:
                    reply = str(error)
            expected = EXPECTED_REPLIES.get(function, NOTHING_FAILED)
            ok = reply == expected
            how = "sam local invoke" if function in images else "start-lambda invoke"
            print(f"{how} {function} -e {event.relative_to(ROOT)}: {json.dumps(reply)}"
                  f"{'' if ok else f' (expected {json.dumps(expected)})'}", flush=True)
            failures += 0 if ok else 1
        return failures
