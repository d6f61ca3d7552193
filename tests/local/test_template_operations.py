"""What running the stack on AWS needs from template.yaml beyond the code's variables and permissions
(test_template_reach.py): workers' timeouts that fit their batches, queues that do not redeliver a batch
still running, alarms and log retention for everything, a guided deploy that asks for no secret, URLs of
the partition, WAF limits WAF accepts, and a stack under CloudFormation's 500 resources."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bindery.platform.config import Settings
from local.template import TEMPLATE, load

# The longest work one message may take in each SQS-triggered worker, as the code bounds it (seconds).
PER_MESSAGE_SECONDS = {
    # One signed POST per event, bounded by the delivery timeout; the reads around it are milliseconds.
    "IntegrationEventWorker": Settings().integration_delivery_timeout,
    # A spec fetch is bounded by the fetch timeout, per file its $refs name; a spec names a handful.
    "OpenAPIProcessingWorker": 5 * Settings().openapi_fetch_timeout,
    # Building one revision's index and link report, CPU-bound: the budget the template has given it so
    # far (120 s for a batch of 10). Raise it here and in the template together.
    "SearchIndexWorker": 12,
    # Extracting and clustering one conversation with the built-in extractor; likewise the template's.
    "ConversationsWorker": 12,
    # One run per invocation (BatchSize 1): the run's own budget is the function's timeout.
    "GitSyncWorker": 600,
    "TranslationRunWorker": 900,
}
MAX_RESOURCES = 500


def _resources() -> dict[str, Any]:
    return dict(load().raw["Resources"])


def _timeout(props: dict[str, Any]) -> int:
    return int(props.get("Timeout", load().raw["Globals"]["Function"]["Timeout"]))


def _worker_id(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _sqs_workers() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    found = []
    for name, resource in _resources().items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        for event in (resource["Properties"].get("Events") or {}).values():
            if event["Type"] == "SQS":
                found.append((name, resource["Properties"], event["Properties"]))
    return found


@pytest.mark.parametrize(("name", "props", "event"), _sqs_workers(), ids=_worker_id)
def test_a_workers_timeout_covers_its_whole_batch(name, props, event):
    assert name in PER_MESSAGE_SECONDS, f"{name}: declare the longest work of one message above"
    assert _timeout(props) >= event["BatchSize"] * PER_MESSAGE_SECONDS[name], name


@pytest.mark.parametrize(("name", "props", "event"), _sqs_workers(), ids=_worker_id)
def test_a_queue_hides_a_message_six_times_its_workers_timeout(name, props, event):
    queue = event["Queue"]["Fn::GetAtt"]
    queue_name = queue.split(".")[0] if isinstance(queue, str) else queue[0]
    visibility = _resources()[queue_name]["Properties"].get("VisibilityTimeout", 30)
    assert visibility >= 6 * _timeout(props), f"{queue_name} for {name}"


def test_every_dead_letter_queue_has_an_alarm_at_its_first_message():
    resources = _resources()
    dead_letters = {props["RedrivePolicy"]["deadLetterTargetArn"]["Fn::GetAtt"].split(".")[0]
                    for resource in resources.values() if resource["Type"] == "AWS::SQS::Queue"
                    for props in [resource["Properties"]] if "RedrivePolicy" in props}
    dead_letters.add("SpacePurgeDLQ")  # the table stream's on-failure destination
    assert len(dead_letters) == 7
    alarmed = {}
    for resource in resources.values():
        props = resource.get("Properties") or {}
        if resource["Type"] == "AWS::CloudWatch::Alarm" and props["Namespace"] == "AWS/SQS":
            alarmed[props["Dimensions"][0]["Value"]["Fn::GetAtt"].split(".")[0]] = props
    assert set(alarmed) == dead_letters
    for props in alarmed.values():
        assert (props["MetricName"], props["Threshold"], props["ComparisonOperator"]) == (
            "ApproximateNumberOfMessagesVisible", 0, "GreaterThanThreshold")
        assert props["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_every_function_has_error_and_throttle_alarms_and_a_log_group_with_retention():
    resources = _resources()
    watched: dict[str, set[str]] = {}
    for resource in resources.values():
        props = resource.get("Properties") or {}
        if resource["Type"] == "AWS::CloudWatch::Alarm" and props["Namespace"] == "AWS/Lambda":
            assert props["AlarmActions"] == [{"Ref": "AlarmTopic"}]
            watched.setdefault(props["Dimensions"][0]["Value"]["Ref"], set()).add(props["MetricName"])
    for name in load().functions:
        assert watched.get(name) == {"Errors", "Throttles"}, name
        group = resources[name]["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert resources[group]["Type"] == "AWS::Logs::LogGroup"
        assert resources[group]["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    parameters = load().raw["Parameters"]
    assert parameters["LogRetentionDays"]["Default"] in parameters["LogRetentionDays"]["AllowedValues"]
    # The email subscription is optional: without an address the topic still collects the alarms.
    assert resources["AlarmEmailSubscription"]["Condition"] == "EmailAlarms"


def _expanded_count(resources: dict[str, Any]) -> int:
    """Resources after SAM's transform, by its rules: a function with AutoPublishAlias is a function, a
    role, a version and an alias, plus one permission or event source mapping per event; an API is a
    REST API, a deployment, a stage and the authorizer's permission."""
    count = 0
    for resource in resources.values():
        if resource["Type"] == "AWS::Serverless::Function":
            count += 4 + len(resource["Properties"].get("Events") or {})
        elif resource["Type"] == "AWS::Serverless::Api":
            count += 4
        else:
            count += 1
    return count


def test_the_stack_stays_well_under_cloudformations_resource_limit():
    count = _expanded_count(_resources())
    # Room for growth: a new function with its alarms and log group adds about ten.
    assert count <= MAX_RESOURCES - 100, count


def test_a_guided_deploy_asks_for_no_secret():
    raw = load().raw
    assert not [name for name, spec in raw["Parameters"].items() if spec.get("NoEcho")]
    secret = raw["Resources"]["CursorSecret"]
    assert secret["Type"] == "AWS::SecretsManager::Secret"
    assert secret["Properties"]["GenerateSecretString"]["PasswordLength"] >= 32
    # No function holds a secret value in its environment.
    for function in load().functions.values():
        assert "BINDERY_CURSOR_SECRET" not in function.environment
        assert "BINDERY_TRANSLATION_API_KEY" not in function.environment


def test_urls_are_built_from_the_partitions_suffix_and_never_point_at_localhost():
    text = TEMPLATE.read_text()
    assert not re.search(r"execute-api\.\$\{AWS::Region\}\.amazonaws\.com", text)
    assert "127.0.0.1" not in text
    assert "localhost" not in text
    urls = json.loads(_resources()["StackUrls"]["Properties"]["Value"]["Fn::Sub"])
    assert urls == {"api": "https://${Api}.execute-api.${AWS::Region}.${AWS::URLSuffix}/v1",
                    "sites": "https://${SitesWebApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/sites"}


def _assertion_holds(assertion: Any, value: str) -> bool:
    """CloudFormation's rule functions, as far as the template uses them."""
    if isinstance(assertion, dict) and "Fn::Not" in assertion:
        return not _assertion_holds(assertion["Fn::Not"][0], value)
    if isinstance(assertion, dict) and "Fn::Contains" in assertion:
        choices, ref = assertion["Fn::Contains"]
        assert ref == {"Ref": "ClientRateLimit"}
        return value in choices
    raise AssertionError(f"unknown rule function {assertion}")


@pytest.mark.parametrize(("limit", "accepted"), [("0", True), ("1", False), ("9", False), ("10", True),
                                                  ("6000", True)])
def test_client_rate_limit_is_zero_or_what_waf_accepts(limit, accepted):
    (assertion,) = load().raw["Rules"]["ClientRateLimitWafAccepts"]["Assertions"]
    assert _assertion_holds(assertion["Assert"], limit) is accepted
    assert load().raw["Parameters"]["ClientRateLimit"]["MaxValue"] == 2_000_000_000


def test_failed_multipart_uploads_are_cleaned_up():
    rules = _resources()["BlobBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]
    assert any(rule["Status"] == "Enabled"
               and rule["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"] >= 1 for rule in rules)


def test_functions_name_the_parameter_the_stack_writes_its_urls_to():
    raw = load().raw
    named = raw["Globals"]["Function"]["Environment"]["Variables"]["BINDERY_STACK_URLS_PARAMETER"]
    assert named == {"Fn::Sub": "/${AWS::StackName}/urls"}
    assert raw["Resources"]["StackUrls"]["Properties"]["Name"] == named
