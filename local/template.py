"""Reads template.yaml: the functions, their API events, the authorizer, the gateway responses and the
table definition. The runner and the tests take all of these from here, so they cannot drift."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from local import dockerfile

ROOT = Path(__file__).resolve().parent.parent
V1_API = "Api"
TEMPLATE = ROOT / "template.yaml"


class _CfnLoader(yaml.SafeLoader):  # type: ignore[misc]
    """YAML loader that keeps CloudFormation's short-form tags (!Ref, !GetAtt, !Sub…) as plain data."""


def _tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {f"Fn::{suffix}" if suffix != "Ref" else "Ref": value}


_CfnLoader.add_multi_constructor("!", _tag)


@dataclass(frozen=True)
class Route:
    function: str
    path: str
    method: str  # upper case, or ANY
    # `Auth: {Authorizer: NONE}` on the event: API Gateway runs no authorizer for this route.
    public: bool = False
    # The REST API the event names (`RestApiId`): the v1 API, or the readers' `SitesWebApi`.
    api: str = "Api"

    @property
    def segments(self) -> list[str]:
        return [part for part in self.path.split("/") if part]


@dataclass
class Function:
    name: str
    code_uri: Path
    handler: str
    routes: list[Route] = field(default_factory=list)
    # Globals.Function's variables with the function's own on top, as SAM merges them (values unresolved).
    environment: dict[str, Any] = field(default_factory=dict)
    # A `PackageType: Image` function's Dockerfile: its base image (runtime, architecture) and the
    # requirements it installs, which stand for the layers a zip function attaches. None for zip functions.
    image: dockerfile.Dockerfile | None = None


@dataclass
class Template:
    functions: dict[str, Function]
    authorizer: str | None
    gateway_responses: dict[str, dict[str, Any]]
    table: dict[str, Any]
    raw: dict[str, Any]
    # How long API Gateway caches the authorizer's answer for a token (ReauthorizeEvery; 300 s when unset).
    authorizer_ttl: int = 300
    # Each REST API's stage (logical id -> StageName): `Api` is v1, the JSON API; others serve pages.
    stages: dict[str, str] = field(default_factory=lambda: {V1_API: "v1"})

    @property
    def routes(self) -> list[Route]:
        """The v1 API's routes (the JSON API the OpenAPI document describes)."""
        return self.routes_of(V1_API)

    def routes_of(self, api: str) -> list[Route]:
        return [route for function in self.functions.values() for route in function.routes
                if route.api == api]

    def api_of_stage(self, stage: str) -> str | None:
        return next((api for api, name in self.stages.items() if name == stage), None)


def _variables(props: dict[str, Any]) -> dict[str, Any]:
    return dict((props.get("Environment") or {}).get("Variables") or {})


def _code_and_handler(name: str, resource: dict[str, Any], base: Path,
                      ) -> tuple[Path, str, dockerfile.Dockerfile | None]:
    """A function's code directory and handler. A zip function names them (CodeUri, Handler); an image
    function has neither: its code is the directory of the Dockerfile its Metadata names (relative to
    DockerContext, as `sam build` reads it) and its handler is `ImageConfig.Command[0]`, else the
    Dockerfile's CMD."""
    props = resource.get("Properties") or {}
    if props.get("PackageType") != "Image":
        return base / props["CodeUri"], props["Handler"], None
    metadata = resource.get("Metadata") or {}
    if "Dockerfile" not in metadata or "DockerContext" not in metadata:
        # sam build builds nothing without DockerContext (aws/aws-sam-cli#7017): refuse it here already.
        raise ValueError(f"{name}: an Image function needs Metadata.Dockerfile and Metadata.DockerContext")
    image = dockerfile.read(base / metadata["DockerContext"] / metadata["Dockerfile"])
    command = list((props.get("ImageConfig") or {}).get("Command") or image.command)
    if not command:
        raise ValueError(f"{name}: no ImageConfig.Command and no CMD in {image.path}")
    return image.path.parent, str(command[0]), image


def _function_of(arn: dict[str, Any]) -> str:
    """The function an ARN names: `!GetAtt Fn.Arn`, or `!Ref FnAlias<name>` (the alias SAM creates for
    AutoPublishAlias)."""
    if "Ref" in arn:
        return str(arn["Ref"]).rsplit("Alias", 1)[0]
    target = arn["Fn::GetAtt"]
    return str(target.split(".")[0] if isinstance(target, str) else target[0])


@lru_cache(maxsize=4)
def load(path: Path = TEMPLATE) -> Template:
    """The template at `path`; relative paths in it (CodeUri, DockerContext) are relative to its directory."""
    raw = yaml.load(path.read_text(), Loader=_CfnLoader)  # noqa: S506 - a SafeLoader subclass
    resources: dict[str, Any] = raw["Resources"]
    functions: dict[str, Function] = {}
    authorizer_name: str | None = None
    authorizer_ttl = 300
    gateway_responses: dict[str, dict[str, Any]] = {}
    stages: dict[str, str] = {}
    table: dict[str, Any] = {}
    global_environment = _variables((raw.get("Globals") or {}).get("Function") or {})
    for name, resource in resources.items():
        kind, props = resource["Type"], resource.get("Properties", {})
        if kind == "AWS::Serverless::Function":
            code, handler, image = _code_and_handler(name, resource, path.parent)
            function = Function(name, code, handler, environment={**global_environment, **_variables(props)},
                                image=image)
            for event in (props.get("Events") or {}).values():
                if event["Type"] == "Api":
                    ev = event["Properties"]
                    public = (ev.get("Auth") or {}).get("Authorizer") == "NONE"
                    api = str((ev.get("RestApiId") or {}).get("Ref", V1_API))
                    function.routes.append(Route(name, ev["Path"], ev["Method"].upper(), public, api))
            functions[name] = function
        elif kind == "AWS::Serverless::Api":
            stages[name] = str(props["StageName"])
            if name != V1_API:
                continue  # the readers' APIs have no authorizer and no JSON gateway responses
            auth = props.get("Auth", {})
            default = auth.get("DefaultAuthorizer")
            if default:
                arn = auth["Authorizers"][default]["FunctionArn"]
                authorizer_name = _function_of(arn)
                identity = auth["Authorizers"][default].get("Identity") or {}
                authorizer_ttl = int(identity.get("ReauthorizeEvery", 300))
            gateway_responses = props.get("GatewayResponses", {})
        elif kind == "AWS::DynamoDB::Table":
            table = props
    return Template(functions, authorizer_name, gateway_responses, table, raw, authorizer_ttl, stages)


def create_table_kwargs(table_name: str) -> dict[str, Any]:
    """`CreateTable` arguments for the table as template.yaml declares it (GSIs included)."""
    props = load().table
    kwargs: dict[str, Any] = {
        "TableName": table_name,
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
    }
    if props.get("GlobalSecondaryIndexes"):
        kwargs["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
    return kwargs


def ttl_attribute() -> str | None:
    spec = load().table.get("TimeToLiveSpecification") or {}
    return spec.get("AttributeName") if spec.get("Enabled") else None
