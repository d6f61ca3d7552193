"""Static check of template.yaml against the code each function can run: every environment variable the
code reads is set for that function (or is declared optional below, with why), and every AWS call it can
make has its IAM permission. What a function can run is the import graph of its handler (every `import`
anywhere in a module, lazy ones included) over its code directory and the shared layer. Adding a setting,
an `os.environ` read, a queue or an AWS call without the template entry fails here."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bindery.platform.config import _ENV, Settings
from local.template import ROOT, Function, load

LAYER = ROOT / "layers" / "shared"

# Read by the code but rightly not set by the template: a safe default, or something only local runs set.
OPTIONAL = {
    "AWS_REGION": "set by Lambda itself",
    "BINDERY_SQS_ENDPOINT": "local runs only (the local SQS); boto3 finds SQS on AWS",
    "BINDERY_ALLOW_PRIVATE_HOSTS": "local runs only: off (refuse private addresses) is what AWS needs",
    "BINDERY_GIT_ALLOW_FILE_URLS": "local runs only: off on AWS",
    "BINDERY_TRANSLATION_API_KEY": "local runs only: deployed, the key is in Secrets Manager",
    "BINDERY_CURSOR_SECRET": "local runs only: deployed, BINDERY_CURSOR_SECRET_ARN names the secret",
    "BINDERY_CLOCK_OFFSET_SECONDS": "tests and the local runner move the clock; 0 on AWS",
    "BINDERY_SEARCH_CACHE_DIR": "the index cache directory; the default is under /tmp",
    "BINDERY_BLOB_DIR": "local runs only (blobs in files instead of S3)",
    "POWERTOOLS_METRICS_NAMESPACE": "the metrics namespace's default is Bindery's",
    # Bounds with defaults fit for AWS (docs/openapi.md, translations.md, integrations.md).
    "BINDERY_OPENAPI_FETCH_TIMEOUT": "default 10 s", "BINDERY_OPENAPI_MAX_BYTES": "default 10 MB",
    "BINDERY_TRANSLATION_TIMEOUT": "default 60 s", "BINDERY_TRANSLATION_RETRIES": "default 4",
    "BINDERY_TRANSLATION_BACKOFF": "default 1 s", "BINDERY_TRANSLATION_BATCH_CHARS": "default 8000",
    "BINDERY_TRANSLATION_MAX_REQUEST_BYTES": "default 120 kB",
    "BINDERY_INTEGRATION_DELIVERY_TIMEOUT": "default 10 s (the worker's Timeout is sized from it)",
}
# Settings fields that are no environment variable.
NOT_VARIABLES = {"on_lambda"}
_ENVIRON = re.compile(r"""os\.environ(?:\.get)?[\[(]\s*(?:"([A-Z0-9_]+)"|([A-Z][A-Z0-9_]*))""")


def _module_file(name: str, roots: list[Path]) -> Path | None:
    for root in roots:
        path = root.joinpath(*name.split("."))
        if (path / "__init__.py").is_file():
            return path / "__init__.py"
        if path.with_suffix(".py").is_file():
            return path.with_suffix(".py")
    return None


def _imported(module: str, path: Path, tree: ast.AST) -> list[str]:
    names: list[str] = []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[:len(package) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    parts = module.split(".")
    return names + [".".join(parts[:end]) for end in range(1, len(parts))]


@cache
def reached(name: str) -> dict[str, Path]:
    """The project's modules the function's handler can import (module name -> file)."""
    function = load().functions[name]
    roots = [function.code_uri, LAYER]
    found: dict[str, Path] = {}
    todo = [function.handler.rsplit(".", 1)[0]]
    while todo:
        module = todo.pop()
        path = None if module in found else _module_file(module, roots)
        if path is None:
            continue
        found[module] = path
        todo += _imported(module, path, ast.parse(path.read_text()))
    return found


def variables_read(name: str) -> set[str]:
    """Environment variables the function's code reads: Settings fields it uses, and os.environ reads."""
    read: set[str] = set()
    for module, path in reached(name).items():
        if module == "bindery.platform.config":
            continue
        text = path.read_text()
        for field in Settings.model_fields:
            if field not in NOT_VARIABLES and re.search(rf'\.{field}\b|"{field}"', text):
                read.add(_ENV[field])
        for literal, constant in _ENVIRON.findall(text):
            if literal:
                read.add(literal)
            else:
                assigned = re.search(rf'^{constant}\s*=\s*"([A-Z0-9_]+)"', text, re.MULTILINE)
                assert assigned, f"{path}: os.environ read through {constant}, not a constant here"
                read.add(assigned.group(1))
    return read


def _policies(function: Function) -> list[dict[str, Any]]:
    resource = load().raw["Resources"][function.name]
    return list(resource["Properties"].get("Policies") or [])


def _statements(function: Function) -> list[dict[str, Any]]:
    return [statement for policy in _policies(function) if "Statement" in policy
            for statement in policy["Statement"]]


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _allows(function: Function, action: str, resource: Any) -> bool:
    for statement in _statements(function):
        actions, resources = _listed(statement["Action"]), _listed(statement["Resource"])
        if statement["Effect"] == "Allow" and action in actions and resource in resources:
            return True
    return False


def _templates(function: Function, kind: str) -> list[dict[str, Any]]:
    """The function's SAM policy templates of `kind`, `!GetAtt A.B` written as ["A", "B"]."""
    return [_normal(policy[kind]) for policy in _policies(function) if kind in policy]


def _normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: (item.split(".", 1) if key == "Fn::GetAtt" and isinstance(item, str) else _normal(item))
                for key, item in value.items()}
    return value


FUNCTIONS = sorted(load().functions)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_variable_the_code_reads_is_set_for_the_function(name):
    function = load().functions[name]
    unset = {variable for variable in variables_read(name) - set(OPTIONAL)
             if variable not in function.environment}
    assert not unset, f"{name} reads {sorted(unset)}: set them in template.yaml or declare them OPTIONAL"


def test_the_check_sees_what_it_should():
    # Guards the import graph itself: a worker that sends to queues and a function that does not.
    assert "BINDERY_INTEGRATION_EVENTS_QUEUE_URL" in variables_read("SpacePurgeWorker")
    assert "bindery.platform.queues" not in reached("AuthorizerFunction")
    assert "bindery.engines.translation.backends" in reached("TranslationRunWorker")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_queue_the_code_sends_to_is_permitted(name):
    function = load().functions[name]
    reads = variables_read(name)
    if "bindery.platform.queues" not in reached(name):
        return
    for variable, value in function.environment.items():
        if not variable.endswith("_QUEUE_URL") or variable not in reads:
            continue
        queue = value["Ref"]
        sends = {"QueueName": {"Fn::GetAtt": [queue, "QueueName"]}}
        assert sends in _templates(function, "SQSSendMessagePolicy"), f"{name} may send to {queue}"


@pytest.mark.parametrize("name", FUNCTIONS)
def test_s3_writers_may_abort_their_multipart_uploads_and_readers_may_read(name):
    function = load().functions[name]
    bucket = {"BucketName": {"Ref": "BlobBucket"}}
    if "bindery.store.objects" in reached(name):
        assert bucket in _templates(function, "S3CrudPolicy") + _templates(function, "S3ReadPolicy"), name
    if bucket in _templates(function, "S3CrudPolicy"):
        # boto3's upload_fileobj (bindery.store.objects) aborts a failed multipart upload.
        assert _allows(function, "s3:AbortMultipartUpload", {"Fn::Sub": "${BlobBucket.Arn}/*"}), name


@pytest.mark.parametrize("name", FUNCTIONS)
def test_secrets_and_parameters_read_are_permitted_on_exactly_those(name):
    function = load().functions[name]
    modules = reached(name)
    if "bindery.platform.cursor_secret" in modules:
        assert function.environment.get("BINDERY_CURSOR_SECRET_ARN") == {"Ref": "CursorSecret"}
        assert {"SecretArn": {"Ref": "CursorSecret"}} in _templates(
            function, "AWSSecretsManagerGetSecretValuePolicy"), name
    if "bindery.platform.stack_urls" in modules:
        assert {"ParameterName": {"Fn::Sub": "${AWS::StackName}/urls"}} in _templates(
            function, "SSMParameterReadPolicy"), name
    if "bindery.engines.translation.backends" in modules:
        secret = function.environment.get("BINDERY_TRANSLATION_API_KEY_SECRET")
        assert secret == {"Ref": "TranslationApiKeySecret"}, name
        assert _allows(function, "secretsmanager:GetSecretValue", TRANSLATION_SECRET), name
    for statement in _statements(function):
        assert not any("secret:*" in str(resource) for resource in _listed(statement["Resource"])), name


TRANSLATION_SECRET = {"Fn::Sub": "arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}"
                                 ":secret:${TranslationApiKeySecret}-??????"}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_integration_secrets_are_sealed_with_the_stacks_key(name):
    function = load().functions[name]
    if "bindery.platform.secret_box" not in reached(name):
        return
    assert function.environment.get("BINDERY_SECRETS_KMS_KEY") == {"Ref": "IntegrationSecretsKey"}, name
    assert _allows(function, "kms:Decrypt", {"Fn::GetAtt": "IntegrationSecretsKey.Arn"}), name
