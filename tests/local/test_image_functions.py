"""Container-image functions (docs/deploy.md): the runner and the tests find an Image function's code and
handler from its Metadata and ImageConfig, the conversations worker's Dockerfile builds on the runtime
and architecture the zip functions declare, and Globals holds nothing an Image function may not have."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from local import dockerfile, template_parameters, wheels
from local.template import ROOT, load

# What SAM and Lambda refuse on a `PackageType: Image` function (and Globals cannot be skipped per function).
ZIP_ONLY = ("Runtime", "Handler", "Layers", "SnapStart", "CodeUri")

DOCKERFILE = """\
FROM public.ecr.aws/lambda/python:3.12-arm64
COPY layers/shared/requirements.txt /tmp/shared.txt
COPY --chown=root layers/insights/requirements.txt \\
     /tmp/insights.txt
RUN pip install -r /tmp/shared.txt -r /tmp/insights.txt --target "${LAMBDA_TASK_ROOT}"
COPY functions/worker/ ${LAMBDA_TASK_ROOT}/
CMD ["worker_fn.app.lambda_handler"]
"""


def _template(tmp_path: Path, image_config: str = "", metadata: str = "DockerContext: .") -> Path:
    (tmp_path / "functions" / "worker").mkdir(parents=True)
    (tmp_path / "functions" / "worker" / "Dockerfile").write_text(DOCKERFILE)
    path = tmp_path / "template.yaml"
    path.write_text(textwrap.dedent(f"""\
        Globals:
          Function:
            Architectures: [arm64]
        Resources:
          ApiFunction:
            Type: AWS::Serverless::Function
            Properties:
              CodeUri: functions/api
              Handler: api_fn.app.lambda_handler
              Runtime: python3.12
          Worker:
            Type: AWS::Serverless::Function
            Properties:
              PackageType: Image
              {image_config}
              Environment:
                Variables:
                  MODE: image
            Metadata:
              Dockerfile: functions/worker/Dockerfile
              {metadata}
        """))
    return path


def test_an_image_function_runs_the_command_of_its_image_config_from_its_dockerfile_directory(tmp_path):
    template = load(_template(tmp_path, image_config='ImageConfig: {Command: ["other_fn.app.handler"]}'))
    worker = template.functions["Worker"]
    assert worker.code_uri == tmp_path / "functions" / "worker"
    assert worker.handler == "other_fn.app.handler"
    assert worker.environment == {"MODE": "image"}
    assert worker.image is not None
    # The requirements its Dockerfile installs stand for the layers of a zip function.
    assert worker.image.requirements == ("layers/shared/requirements.txt", "layers/insights/requirements.txt")
    assert (worker.image.runtime, worker.image.architecture) == ("python3.12", "arm64")
    api = template.functions["ApiFunction"]
    assert api.code_uri == tmp_path / "functions" / "api"
    assert (api.handler, api.image) == ("api_fn.app.lambda_handler", None)


def test_without_image_config_the_handler_is_the_dockerfile_cmd(tmp_path):
    assert load(_template(tmp_path)).functions["Worker"].handler == "worker_fn.app.lambda_handler"


def test_an_image_function_without_a_docker_context_is_refused(tmp_path):
    # sam build would build nothing for it (aws/aws-sam-cli#7017).
    with pytest.raises(ValueError, match="Worker: an Image function needs"):
        load(_template(tmp_path, metadata="DockerTag: v1"))


def test_a_base_image_that_is_not_a_lambda_python_image_has_no_runtime(tmp_path):
    for base, expected in [("public.ecr.aws/lambda/python:3.12", ("python3.12", "x86_64")),
                           ("public.ecr.aws/lambda/python:3.11-arm64", ("python3.11", "arm64")),
                           ("python:3.12-slim", (None, None))]:
        (tmp_path / "Dockerfile").write_text(f"FROM {base}\n")
        image = dockerfile.read(tmp_path / "Dockerfile")
        assert (image.runtime, image.architecture) == expected, base


def test_the_wheel_check_reports_an_image_it_cannot_check(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM python:3.12-slim\n")
    worker = {"Type": "AWS::Serverless::Function", "Properties": {"PackageType": "Image"},
              "Metadata": {"Dockerfile": "Dockerfile", "DockerContext": str(tmp_path)}}
    _, _, problems = wheels.targets_and_requirements({"Resources": {"Worker": worker}})
    expected = "Dockerfile: FROM python:3.12-slim is not an AWS Lambda Python base image"
    assert problems == [f"{tmp_path}/{expected}"]


def test_the_conversations_worker_image_is_built_on_the_runtime_and_architecture_of_the_zip_functions():
    # For each architecture the template's Architecture parameter allows (arm64 deployed, x86_64 for
    # `sam local` on an x86_64 host), with the build arguments template.yaml passes.
    variants = template_parameters.architecture_variants(load().raw)
    assert len(variants) == 2
    for raw in variants:
        architectures = raw["Globals"]["Function"]["Architectures"]
        runtimes = {props["Runtime"] for resource in raw["Resources"].values()
                    if resource["Type"] == "AWS::Serverless::Function"
                    and (props := resource["Properties"]).get("PackageType", "Zip") == "Zip"}
        arguments = raw["Resources"]["ConversationsWorker"]["Metadata"]["DockerBuildArgs"]
        image = dockerfile.read(ROOT / "functions" / "conversations" / "Dockerfile", arguments)
        assert image.base_image == f"public.ecr.aws/lambda/python:3.12-{architectures[0]}"
        assert runtimes == {image.runtime}
        assert architectures == [image.architecture]
        # It installs exactly what the layers did, so `make check-wheels` checks what it ships.
        assert image.requirements == ("layers/shared/requirements.txt", "layers/insights/requirements.txt")
        assert image.command == ("conversation_worker.app.lambda_handler",)
    # Built without arguments (`docker build` by hand) it is the deployed one: AWS's arm64 image.
    alone = dockerfile.read(ROOT / "functions" / "conversations" / "Dockerfile")
    assert alone.base_image == "public.ecr.aws/lambda/python:3.12-arm64"


def test_a_base_image_given_as_a_build_argument_takes_the_argument_or_its_default(tmp_path):
    (tmp_path / "Dockerfile").write_text('ARG BASE=public.ecr.aws/lambda/python:3.12-arm64\nFROM ${BASE}\n')
    assert dockerfile.read(tmp_path / "Dockerfile").architecture == "arm64"
    local = dockerfile.read(tmp_path / "Dockerfile", {"BASE": "bindery/lambda-python:3.12-x86_64"})
    assert local.base_image == "bindery/lambda-python:3.12-x86_64"
    assert (local.runtime, local.architecture) == (None, None)


def test_the_conversations_worker_image_ships_its_code_compiled():
    # /var/task is read-only on Lambda: bytecode not built into the image is compiled on every cold start.
    text = (ROOT / "functions" / "conversations" / "Dockerfile").read_text()
    assert "--no-compile" not in text
    assert 'python3.12 -m compileall -q -j 0 "${LAMBDA_TASK_ROOT}"' in text


def test_globals_hold_nothing_an_image_function_may_not_have_and_each_zip_function_sets_it():
    raw = load().raw
    assert not set(raw["Globals"]["Function"]) & set(ZIP_ONLY)
    layer = {"Ref": "SharedLayer"}
    for name, resource in raw["Resources"].items():
        props = resource.get("Properties") or {}
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        if props.get("PackageType") == "Image":
            assert not set(props) & set(ZIP_ONLY), name
            continue
        assert props["Runtime"] == "python3.12", name
        assert props["Layers"][0] == layer, name
        # Every function starts from a SnapStart snapshot except the Git Sync worker (4 GB of /tmp).
        expected = "None" if name == "GitSyncWorker" else "PublishedVersions"
        assert props["SnapStart"] == {"ApplyOn": expected}, name
