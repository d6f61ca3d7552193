"""Request bodies of integrations (publishIntegration, installIntegration, updateIntegrationInstallation,
installIntegrationOnSpace/Site, updateIntegrationSpace/SiteInstallation, setIntegrationDevelopmentMode),
with the official spec's enums and bounds."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, Text, Url
from bindery.requests.integration_kinds import Category, Scope, Selection, Target, Visibility

ExternalIds = Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=5)]
Base64 = Annotated[str, Field(min_length=1, max_length=2_000_000)]
CSP_DIRECTIVES = frozenset({
    "base-uri", "block-all-mixed-content", "child-src", "connect-src", "default-src", "font-src",
    "form-action", "frame-ancestors", "frame-src", "img-src", "manifest-src", "media-src", "navigate-to",
    "object-src", "plugin-types", "prefetch-src", "referrer", "report-to", "report-uri", "require-sri-for",
    "require-trusted-types-for", "sandbox", "script-src", "script-src-attr", "script-src-elem", "style-src",
    "style-src-attr", "style-src-elem", "trusted-types", "upgrade-insecure-requests", "worker-src"})


class IntegrationBlockMarkdown(Body):
    codeblock: str
    body: str


class IntegrationBlock(Body):
    id: Annotated[str, Field(min_length=1, max_length=100)]
    title: Annotated[str, Field(min_length=2, max_length=40)]
    description: Annotated[str, Field(max_length=150)] | None = None
    icon: Url | None = None
    urlUnfurl: list[Annotated[str, Field(max_length=2048)]] | None = None
    markdown: IntegrationBlockMarkdown | None = None


class IntegrationConfigurationComponent(Body):
    componentId: Annotated[str, Field(min_length=1, max_length=100)]


class IntegrationContentSource(Body):
    id: Annotated[str, Field(min_length=1, max_length=100)]
    title: Annotated[str, Field(min_length=2, max_length=40)]
    description: Annotated[str, Field(max_length=150)] | None = None
    icon: Url | None = None
    configuration: IntegrationConfigurationComponent


_DEFAULT_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "number": (int, float), "boolean": (bool,)}


class IntegrationConfigurationProperty(Body):
    """One property of a configuration schema: a string, number or boolean field, or a button."""

    title: Annotated[str, Field(max_length=30)] | None = None
    description: Annotated[str, Field(max_length=100)] | None = None
    type: Literal["string", "number", "boolean", "button"]
    default: Any = None
    completion_url: str | None = None
    enum: list[str] | None = None
    callback_url: str | None = None
    button_text: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> IntegrationConfigurationProperty:
        if self.type == "button":
            if not self.callback_url or not self.button_text:
                raise PydanticCustomError("button", "a button needs callback_url and button_text")
            return self
        allowed = _DEFAULT_TYPES[self.type]
        wrong_bool = self.type == "number" and isinstance(self.default, bool)
        if self.default is not None and (not isinstance(self.default, allowed) or wrong_bool):
            raise PydanticCustomError("default_type", "default must be a {kind}", {"kind": self.type})
        if self.enum is not None and self.type != "string":
            raise PydanticCustomError("enum_type", "enum is for string properties only")
        return self


class IntegrationConfigurationSchema(Body):
    properties: dict[Annotated[str, Field(min_length=1, max_length=100)], IntegrationConfigurationProperty]
    required: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _required_known(self) -> IntegrationConfigurationSchema:
        if len(set(self.required)) != len(self.required):
            raise PydanticCustomError("required_unique", "required names a property twice")
        unknown = [name for name in self.required if name not in self.properties]
        if unknown:
            raise PydanticCustomError("required_unknown", "required names no property: {names}",
                                      {"names": ", ".join(unknown)})
        return self


IntegrationConfiguration = IntegrationConfigurationSchema | IntegrationConfigurationComponent


class IntegrationConfigurations(Body):
    account: IntegrationConfiguration | None = None
    space: IntegrationConfiguration | None = None
    site: IntegrationConfiguration | None = None


class IntegrationExternalLink(Body):
    url: Url
    label: Annotated[str, Field(min_length=1, max_length=100)]


def _csp(value: Any) -> Any:
    if isinstance(value, dict):
        unknown = sorted(set(value) - CSP_DIRECTIVES)
        if unknown:
            raise PydanticCustomError("csp", "unknown directive {names}", {"names": ", ".join(unknown)})
        if not all(isinstance(v, str) for v in value.values()):
            raise PydanticCustomError("csp", "every directive's value is a string")
    return value


# The script an integration puts on published sites (docs/integrations.md): bundled code is tens of
# kilobytes; a megabyte would be stored per version and sent with every page's script list.
MAX_SCRIPT_BYTES = 262_144


def _script_size(value: str) -> str:
    size = len(value.encode("utf-8", errors="surrogatepass"))
    if size > MAX_SCRIPT_BYTES:
        raise PydanticCustomError("script_size", "at most {limit} bytes of UTF-8, not {size}",
                                  {"limit": MAX_SCRIPT_BYTES, "size": size})
    return value


class PublishIntegration(Body):
    organization: Annotated[str, Field(min_length=1, max_length=253)]
    title: Annotated[str, Field(min_length=2, max_length=30)]
    description: Annotated[str, Field(max_length=100)]
    script: Annotated[Text, Field(max_length=MAX_SCRIPT_BYTES), AfterValidator(_script_size)]
    scopes: list[Scope]
    runtime: Literal["v1", "v2"] = "v1"
    icon: Base64 | None = None
    summary: Annotated[Text, Field(max_length=2048)] | None = None
    previewImages: Annotated[list[Base64], Field(max_length=3)] | None = None
    visibility: Visibility = "public"
    target: Target = "all"
    categories: list[Category] = Field(default_factory=list)
    blocks: list[IntegrationBlock] = Field(default_factory=list)
    contentSources: list[IntegrationContentSource] = Field(default_factory=list)
    externalLinks: Annotated[list[IntegrationExternalLink], Field(max_length=5)] = Field(default_factory=list)
    configurations: IntegrationConfigurations | None = None
    secrets: Annotated[dict[Annotated[str, Field(min_length=1, max_length=100)],
                            Annotated[str, Field(max_length=10_000)]], Field(max_length=20)] | None = None
    contentSecurityPolicy: Annotated[Annotated[str, Field(max_length=10_000)] | dict[str, str],
                                     AfterValidator(_csp)] | None = None
    # A Bindery extension (the official body has no such field): the HTTPS URL events are delivered to
    # outside development mode; not sent: the previous version's; null: none (docs/integrations.md).
    endpoint: Annotated[str | None, Field(
        min_length=1, max_length=2048,
        description="Bindery extension: the https:// URL events are delivered to outside development mode "
                    "(public addresses only). Not sent: the previous version's; null: none.")] = None


class InstallIntegration(Body):
    organization: Annotated[str, Field(min_length=1, max_length=253)]


class UpdateInstallation(Body):
    externalIds: ExternalIds | None = None
    configuration: dict[str, Any] | None = None
    space_selection: Selection | None = None
    site_selection: Selection | None = None


class InstallOnSpace(Body):
    space: Annotated[str, Field(min_length=1, max_length=100)]


class InstallOnSite(Body):
    siteId: Annotated[str, Field(min_length=1, max_length=100)]


class UpdateContentInstallation(Body):
    externalIds: ExternalIds | None = None
    configuration: dict[str, Any] | None = None


class IntegrationDevMode(Body):
    tunnelUrl: Annotated[Url, Field(min_length=1, max_length=256)]
    all: bool = False
