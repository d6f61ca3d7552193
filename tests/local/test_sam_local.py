"""What `make test-sam` relies on without Docker: the template resolved per architecture as `sam build
--parameter-overrides` resolves it, and the built template adapted to what `sam local` can run."""

from __future__ import annotations

from pathlib import Path

import yaml

from local import template_parameters
from local.sam_local import adapt_built_template
from local.template import load


def test_parameters_resolve_in_refs_and_subs_and_nothing_else():
    raw = {"Parameters": {"Architecture": {"Type": "String", "Default": "arm64",
                                           "AllowedValues": ["arm64", "x86_64"]},
                          "Base": {"Type": "String", "Default": "img:3.12"},
                          "Secret": {"Type": "String"}},
           "Resources": {"Fn": {"Properties": {
               "Architectures": [{"Ref": "Architecture"}],
               "Image": {"Fn::Sub": "${Base}-${Architecture}"},
               "Table": {"Ref": "Table"}, "Region": {"Fn::Sub": "${AWS::Region}"},
               "Secret": {"Ref": "Secret"}}}}}
    variants = template_parameters.architecture_variants(raw)
    resolved = [variant["Resources"]["Fn"]["Properties"] for variant in variants]
    assert [props["Architectures"] for props in resolved] == [["arm64"], ["x86_64"]]
    assert [props["Image"] for props in resolved] == ["img:3.12-arm64", "img:3.12-x86_64"]
    # A resource's Ref, a pseudo parameter, a parameter without a default: left as written.
    assert resolved[0]["Table"] == {"Ref": "Table"}
    assert resolved[0]["Region"] == {"Fn::Sub": "${AWS::Region}"}
    assert resolved[0]["Secret"] == {"Ref": "Secret"}


def test_the_template_deploys_arm64_and_builds_x86_64_for_local_runs():
    raw = load().raw
    assert raw["Parameters"]["Architecture"]["Default"] == "arm64"
    variants = template_parameters.architecture_variants(raw)
    for variant, arch in zip(variants, ["arm64", "x86_64"], strict=True):
        layer = variant["Resources"]["SharedLayer"]
        assert variant["Globals"]["Function"]["Architectures"] == [arch]
        assert layer["Properties"]["CompatibleArchitectures"] == [arch]
        assert layer["Metadata"]["BuildArchitecture"] == arch


def test_the_built_template_gets_an_authorizer_sam_local_can_parse_and_a_public_url(tmp_path: Path):
    built = tmp_path / "template.yaml"
    built.write_text(yaml.safe_dump({
        "Globals": {"Function": {"Environment": {"Variables": {"BINDERY_TABLE": "t"}}}},
        "Resources": {
            "Api": {"Type": "AWS::Serverless::Api", "Properties": {"Auth": {"Authorizers": {
                "TokenAuthorizer": {"FunctionArn": {"Ref": "AuthorizerFunctionAliaslive"}}}}}},
            "SharedLayer": {"Type": "AWS::Serverless::LayerVersion",
                            "Properties": {"ContentUri": "SharedLayer"}},
            "Fn": {"Type": "AWS::Serverless::Function", "Properties": {"Layers": [{"Ref": "SharedLayer"}]}},
            "Worker": {"Type": "AWS::Serverless::Function",
                       "Properties": {"PackageType": "Image", "ImageUri": "worker:v1"}}}}))
    layers, images = adapt_built_template(built)
    adapted = yaml.safe_load(built.read_text())
    # The layer goes into the image the zip functions run on; the image function keeps its own image.
    assert (layers, images) == (["SharedLayer"], {"Worker": "worker:v1"})
    assert "Layers" not in adapted["Resources"]["Fn"]["Properties"]
    authorizer = adapted["Resources"]["Api"]["Properties"]["Auth"]["Authorizers"]["TokenAuthorizer"]
    assert authorizer["FunctionArn"] == "arn:aws:lambda:us-east-1:123456789012:function:AuthorizerFunction"
    # Declared, so that the env file can set them: on AWS the stack's Secrets Manager and SSM give them.
    assert adapted["Globals"]["Function"]["Environment"]["Variables"] == {
        "BINDERY_TABLE": "t", "BINDERY_PUBLIC_URL": "", "BINDERY_APP_URL": "", "BINDERY_SITES_URL": "",
        "BINDERY_CURSOR_SECRET": "", "BINDERY_ALLOW_PRIVATE_HOSTS": ""}
