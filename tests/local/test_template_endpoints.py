"""template.yaml lets `sam local` reach local engines: the optional endpoint parameters reach every
function as the variables the layer reads, and stay empty (unset for the layer) on a deployed stack."""

from __future__ import annotations

import json

import pytest

from bindery.platform import aws
from bindery.platform.config import settings
from local.template import load

OVERRIDES = {"DynamoDbEndpoint": "BINDERY_DYNAMODB_ENDPOINT", "S3Endpoint": "BINDERY_S3_ENDPOINT",
             "SqsEndpoint": "BINDERY_SQS_ENDPOINT"}


def test_every_function_gets_the_endpoint_parameters():
    template = load()
    parameters = template.raw["Parameters"]
    for parameter in OVERRIDES:
        assert parameters[parameter] == {**parameters[parameter], "Type": "String", "Default": ""}
    assert len(template.functions) >= 10
    for function in template.functions.values():
        for parameter, variable in OVERRIDES.items():
            assert function.environment.get(variable) == {"Ref": parameter}, function.name


def test_tracing_is_on_for_the_functions_and_the_api():
    raw = load().raw
    assert raw["Globals"]["Function"]["Tracing"] == "Active"
    assert raw["Resources"]["Api"]["Properties"]["TracingEnabled"] is True


def test_the_stage_throttles_every_route_and_answers_429_in_the_error_shape():
    template = load()
    api = template.raw["Resources"]["Api"]["Properties"]
    assert api["MethodSettings"] == [{"ResourcePath": "/*", "HttpMethod": "*",
                                      "ThrottlingRateLimit": {"Ref": "ApiRateLimit"},
                                      "ThrottlingBurstLimit": {"Ref": "ApiBurstLimit"}}]
    parameters = template.raw["Parameters"]
    assert parameters["ApiRateLimit"]["Default"] > 0
    assert parameters["ApiBurstLimit"]["Default"] >= parameters["ApiRateLimit"]["Default"]
    throttled = template.gateway_responses["THROTTLED"]
    assert throttled["StatusCode"] == 429
    body = json.loads(throttled["ResponseTemplates"]["application/json"])
    assert body == {"error": {"code": 429, "message": body["error"]["message"]}}



def test_each_client_is_limited_by_a_waf_rate_rule_on_the_stage_answering_429_in_the_error_shape():
    template = load()
    resources, parameters = template.raw["Resources"], template.raw["Parameters"]
    acl, association = resources["ApiWebAcl"], resources["ApiWebAclAssociation"]
    # The per-client limit is in the stack unless the parameter turns it off (0).
    assert parameters["ClientRateLimit"]["Default"] > 0
    assert template.raw["Conditions"]["LimitEachClient"] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "ClientRateLimit"}, 0]}]}
    assert acl["Condition"] == association["Condition"] == "LimitEachClient"
    (rule,) = acl["Properties"]["Rules"]
    rate = rule["Statement"]["RateBasedStatement"]
    assert rate["Limit"] == {"Ref": "ClientRateLimit"}
    assert rate["AggregateKeyType"] == "IP"
    refusal = rule["Action"]["Block"]["CustomResponse"]
    assert refusal["ResponseCode"] == 429
    assert {"Name": "Retry-After", "Value": "60"} in refusal["ResponseHeaders"]
    body = json.loads(acl["Properties"]["CustomResponseBodies"][refusal["CustomResponseBodyKey"]]["Content"])
    assert body == {"error": {"code": 429, "message": body["error"]["message"]}}
    # Attached to the v1 stage of this API, once the stage exists.
    assert association["Properties"]["ResourceArn"] == {
        "Fn::Sub": "arn:${AWS::Partition}:apigateway:${AWS::Region}::/restapis/${Api}/stages/v1"}
    assert association["DependsOn"] == "Apiv1Stage"


@pytest.fixture
def environment(monkeypatch):
    yield monkeypatch
    # Back to the test engine before the table fixture's teardown uses it.
    monkeypatch.undo()
    aws.reset()


def test_empty_endpoints_as_deployed_are_unset_for_the_layer(environment):
    environment.setenv("BINDERY_DYNAMODB_ENDPOINT", "")
    environment.setenv("BINDERY_S3_ENDPOINT", "")
    settings.cache_clear()
    assert (settings().dynamodb_endpoint, settings().s3_endpoint) == (None, None)


def test_endpoints_given_are_the_clients_endpoints(environment):
    environment.setenv("BINDERY_DYNAMODB_ENDPOINT", "http://host.docker.internal:8000")
    environment.setenv("BINDERY_S3_ENDPOINT", "http://host.docker.internal:9000")
    aws.reset()
    assert aws.dynamodb_client().meta.endpoint_url == "http://host.docker.internal:8000"
    assert aws.s3_client().meta.endpoint_url == "http://host.docker.internal:9000"
