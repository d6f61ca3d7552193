"""`make test-sam`: the stack as `sam build` builds it, run by `sam local` in Docker, against local engines.

1. Docker (local.docker_daemon), the local Lambda base image (local/lambda_base_image/build.sh: AWS's
   cannot be pulled here) and `sam build` for this host's architecture, with the conversations image
   built from that base.
2. DynamoDB Local, and moto's server for S3 and SQS, listening on Docker's bridge gateway so that the
   function containers reach them; the table, bucket and every queue of template.yaml.
3. `sam local start-api` (the API and its TOKEN authorizer) and `sam local start-lambda`, whose workers
   get the queues' messages as Lambda's SQS event source mapping would hand them
   (local.queue_delivery, invoking through start-lambda's endpoint).
4. The official-client conformance suite (conformance/) against start-api, with a bootstrapped admin;
   its Git repositories served over HTTP on the bridge (local.git_http), which containers reach.
5. `sam local invoke` of every worker with its sample event in events/, each reply checked.

Everything started here is stopped at the end, dockerd included when it was started here.
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import yaml

from local import docker_daemon, dynamodb_local, git_http, queue_delivery, sam_invocations
from local.template import ROOT, create_table_kwargs, load

BASE_IMAGE_REPOSITORY = "bindery/lambda-python:3.12"
TABLE, BUCKET = "bindery", "bindery-blobs"
READY_SECONDS = 180
CONFORMANCE_SECONDS = 45 * 60  # the whole suite, one request at a time (SAM runs one per function)
WORK = ROOT / ".bindery" / "sam-local"


def architecture() -> str:
    return {"x86_64": "x86_64", "aarch64": "arm64", "arm64": "arm64"}[platform.machine()]


def sam(*args: str) -> list[str]:
    venv = Path(os.environ.get("SAM_VENV", ROOT / ".venv-sam")).resolve()
    return [str(venv / "bin" / "sam"), *args]


def sam_environment() -> dict[str, str]:
    """sam's environment: its venv's python3.12 first on PATH (sam build's pip), the credentials the
    containers get (local engines accept any), and no telemetry (nothing beyond this machine)."""
    venv = Path(os.environ.get("SAM_VENV", ROOT / ".venv-sam")).resolve()
    return {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}", "SAM_CLI_TELEMETRY": "0",
            "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_REGION": "us-east-1",
            "AWS_DEFAULT_REGION": "us-east-1"}


def free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    import urllib.error
    import urllib.request
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited ({process.returncode}):\n{log.read_text()[-4000:]}")
        try:
            urllib.request.urlopen(url, timeout=READY_SECONDS)  # noqa: S310 - an http:// URL built here
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {READY_SECONDS} s:\n{log.read_text()[-4000:]}")


def background(stack: ExitStack, command: list[str], log: Path,
               env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Starts `command` in its own process group, stopped (group and all) when `stack` closes."""
    out = log.open("wb")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)

    def stop() -> None:
        # SIGINT first: sam removes the containers it started when interrupted.
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        out.close()
    stack.callback(stop)
    return process


def build(arch: str, build_dir: Path) -> list[str]:
    """Builds the base image and the stack; the --invoke-image arguments for sam local."""
    image = subprocess.run(["bash", str(ROOT / "local" / "lambda_base_image" / "build.sh")], check=True,
                           capture_output=True, text=True).stdout.strip()
    assert image == f"{BASE_IMAGE_REPOSITORY}-{arch}", image
    subprocess.run(sam("build", "--build-dir", str(build_dir), "--parameter-overrides",
                       f"Architecture={arch} LambdaBaseImage={BASE_IMAGE_REPOSITORY}"),
                   cwd=ROOT, env=sam_environment(), check=True)
    layers, images = adapt_built_template(build_dir / "template.yaml")
    # The layers in /opt of the image the zip functions run on, as Lambda mounts them: SAM CLI rebuilds
    # its image of a template-defined layer for every function it starts (half a minute each here).
    with_layers = f"{BASE_IMAGE_REPOSITORY.replace(':', '-layers:')}-{arch}"
    dockerfile = f"FROM {image}\n" + "".join(f"COPY {name}/ /opt/\n" for name in layers)
    subprocess.run(["docker", "build", "-q", "-t", with_layers, "-f", "-", str(build_dir)],
                   input=dockerfile.encode(), check=True, capture_output=True)
    # SAM CLI keeps the image it adds its emulator to by name: drop those of the images just rebuilt.
    for built in [with_layers, *images.values()]:
        subprocess.run(["docker", "rmi", "-f", f"{built.split(':')[0]}:rapid-{arch}"], capture_output=True,
                       check=False)
    return ["--invoke-image", with_layers,
            *[arg for name, uri in images.items() for arg in ("--invoke-image", f"{name}={uri}")]]


def adapt_built_template(built: Path) -> tuple[list[str], dict[str, str]]:
    """What `sam local` cannot do from the template as deployed, done in the built copy; returns the
    layers' build directories, and each container-image function's image (--invoke-image would
    otherwise run the zip functions' image for it too).

    - The functions' layers go into the image they run on (`build`), so no function names one.

    - Each API's Lambda authorizer points at its function rather than the `live` alias: SAM CLI cannot
      parse an alias's ARN ("Unable to parse the Lambda ARN for Authorizer") and would serve every route
      without the authorizer. On AWS the alias stays (SnapStart).
    - Every function may be given BINDERY_PUBLIC_URL (the API's base URL, as a custom domain sets it):
      sam local puts one stage name, the readers' API's, in every event, so the URL a function derives
      from its request would name the wrong stage. An --env-vars file sets only declared variables.
    - And BINDERY_ALLOW_PRIVATE_HOSTS, as the local runner sets it: the engines' presigned URLs name the
      Docker bridge's private address, which fetches are otherwise refused.
    """
    template = yaml.safe_load(built.read_text())
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    for declared in ("BINDERY_PUBLIC_URL", "BINDERY_APP_URL", "BINDERY_SITES_URL", "BINDERY_CURSOR_SECRET"):
        variables.setdefault(declared, "")
    variables.setdefault("BINDERY_ALLOW_PRIVATE_HOSTS", "")
    layers: list[str] = []
    images: dict[str, str] = {}
    for name, resource in template["Resources"].items():
        props = resource.get("Properties") or {}
        if resource["Type"] == "AWS::Serverless::LayerVersion":
            layers.append(str(props["ContentUri"]))
        elif resource["Type"] == "AWS::Serverless::Function":
            props.pop("Layers", None)
            if props.get("PackageType") == "Image":
                images[name] = str(props["ImageUri"])
        authorizers = ((resource.get("Properties") or {}).get("Auth") or {}).get("Authorizers") or {}
        for authorizer in authorizers.values():
            ref = (authorizer.get("FunctionArn") or {}).get("Ref", "")
            if ref.endswith("Aliaslive"):
                # An ARN string, which SAM CLI reads the function's logical id from (it resolves no
                # !GetAtt here either).
                function = ref.removesuffix("Aliaslive")
                authorizer["FunctionArn"] = f"arn:aws:lambda:us-east-1:123456789012:function:{function}"
    built.write_text(yaml.safe_dump(template, sort_keys=False))
    return layers, images


def provision(dynamodb_endpoint: str, moto_endpoint: str, api_url: str) -> dict[str, str]:
    """The table, bucket and queues; the functions' variables naming them (an --env-vars file's
    Parameters: sam local resolves `!Ref Table` and `!Ref SomeQueue` to no real name), and the API's
    URL. Private hosts are allowed and KMS is not used, as under `make run`: the engines are on the
    Docker bridge's private address, and the stack's KMS key is out of reach (integration secrets are
    sealed with the key derived from the cursor secret)."""
    aws = sam_invocations.local_session()
    aws.client("dynamodb", endpoint_url=dynamodb_endpoint).create_table(**create_table_kwargs(TABLE))
    aws.client("s3", endpoint_url=moto_endpoint).create_bucket(Bucket=BUCKET)
    sqs = aws.client("sqs", endpoint_url=moto_endpoint)
    queues = queue_delivery.create_queues(sqs, load(), "bindery-")
    variables = {env: queues[ref].url for env, ref in queue_delivery.queue_environment(load()).items()}
    # On AWS the cursor secret is in Secrets Manager and the URLs in SSM (docs/deploy.md): sam local has
    # neither, and on Lambda (which sam local is) the functions never fall back to local defaults.
    return {"BINDERY_TABLE": TABLE, "BINDERY_BUCKET": BUCKET, **variables, "BINDERY_PUBLIC_URL": api_url,
            "BINDERY_APP_URL": f"{api_url}/app", "BINDERY_SITES_URL": api_url,
            "BINDERY_CURSOR_SECRET": secrets.token_hex(32),
            "BINDERY_ALLOW_PRIVATE_HOSTS": "1", "BINDERY_SECRETS_KMS_KEY": ""}


def serve_git_fixtures(stack: ExitStack, gateway: str) -> git_http.GitHttpServer:
    """A fresh directory for the suite's Git repositories, served to the containers on the bridge
    (fetch and push), until `stack` closes."""
    fixtures = WORK / "git"
    shutil.rmtree(fixtures, ignore_errors=True)
    fixtures.mkdir()
    git = git_http.serve(fixtures, gateway)
    stack.callback(git.stop)
    return git


def main() -> None:
    started = time.monotonic()
    arch = architecture()
    WORK.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        daemon = docker_daemon.ensure(WORK / "dockerd.log")
        stack.callback(daemon.stop)
        build_dir = ROOT / ".aws-sam" / f"local-{arch}"
        invoke_images = build(arch, build_dir)
        print(f"test-sam: built for {arch}: {' '.join(invoke_images)} ({time.monotonic() - started:.0f} s)",
              flush=True)

        gateway = docker_daemon.bridge_gateway()
        ddb = dynamodb_local.start()
        stack.callback(ddb.stop)
        ddb_port = ddb.endpoint.rsplit(":", 1)[1]
        moto_port = free_port(gateway)
        moto_endpoint = f"http://{gateway}:{moto_port}"
        moto_log = WORK / "moto.log"
        moto = background(stack, [str(Path(sys.executable).parent / "moto_server"), "-H", gateway,
                                  "-p", str(moto_port)], moto_log, dict(os.environ))
        wait_for(moto_endpoint + "/moto-api/", moto, moto_log)
        api_port, lambda_port = free_port("127.0.0.1"), free_port("127.0.0.1")
        # sam local serves the API without its stage: the base URL the API names itself by.
        api_url = f"http://127.0.0.1:{api_port}"
        variables = provision(ddb.endpoint, moto_endpoint, api_url)
        env_file = WORK / "env.json"
        env_file.write_text(json.dumps({"Parameters": variables}, indent=2))
        overrides = (f"Architecture={arch} "
                     f"LambdaBaseImage={BASE_IMAGE_REPOSITORY} "
                     f"DynamoDbEndpoint=http://{gateway}:{ddb_port} S3Endpoint={moto_endpoint} "
                     f"SqsEndpoint={moto_endpoint}")
        common = ["-t", str(build_dir / "template.yaml"), "--env-vars", str(env_file), *invoke_images,
                  "--skip-pull-image", "--parameter-overrides", overrides]
        invocations = sam_invocations.SamLocal(sam, sam_environment(), common, WORK)

        stack.callback(sam_invocations.remove_containers)
        api_log, lambda_log = WORK / "start-api.log", WORK / "start-lambda.log"
        api = background(stack, sam("local", "start-api", "--host", "127.0.0.1", "--port", str(api_port),
                                    "--warm-containers", "LAZY", *common), api_log, sam_environment())
        lam = background(stack, sam("local", "start-lambda", "--host", "127.0.0.1", "--port",
                                    str(lambda_port), "--warm-containers", "LAZY", *common),
                         lambda_log, sam_environment())
        wait_for(f"http://127.0.0.1:{api_port}/user", api, api_log)
        wait_for(f"http://127.0.0.1:{lambda_port}/", lam, lambda_log)

        sqs = sam_invocations.local_session().client("sqs", endpoint_url=moto_endpoint)
        deliveries = sam_invocations.deliveries_through(f"http://127.0.0.1:{lambda_port}", sqs, load())
        deliveries.start()
        stack.callback(deliveries.stop)

        admin_env = {**sam_environment(), "BINDERY_DYNAMODB_ENDPOINT": ddb.endpoint, "BINDERY_TABLE": TABLE,
                     "PYTHONPATH": str(ROOT / "layers" / "shared")}
        token = f"gb_api_sam_{secrets.token_hex(16)}"
        # What the local runner's first start makes: an admin, their organization and a token.
        admin = json.loads(subprocess.run(
            [sys.executable, "-m", "bindery.platform.admin", "create-user", "--name", "SAM admin", "--email",
             "sam-admin@example.com", "--token", token],
            cwd=ROOT, env=admin_env, check=True, capture_output=True, text=True).stdout)
        subprocess.run([sys.executable, "-m", "bindery.platform.admin", "create-org",
                        "--owner", admin["userId"], "--title", "SAM local"],
                       cwd=ROOT, env=admin_env, check=True, capture_output=True)
        print(f"test-sam: engines and sam local up ({time.monotonic() - started:.0f} s)", flush=True)

        git = serve_git_fixtures(stack, gateway)
        failures = sam_invocations.run_conformance(api_url, token, admin_env, CONFORMANCE_SECONDS,
                                                   host_for_functions=gateway, git=git)
        print(f"test-sam: conformance done ({time.monotonic() - started:.0f} s)", flush=True)
        failures += invocations.invoke_workers(ROOT / "events", f"http://127.0.0.1:{lambda_port}")
        print(f"test-sam: workers invoked ({time.monotonic() - started:.0f} s)", flush=True)
    if failures:
        raise SystemExit(f"test-sam: {failures} failed (logs in {WORK})")
    print(f"test-sam: passed in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
