"""The records of a DynamoDB table's stream and Lambda's filtering of them, as template.yaml subscribes
functions to the stream: shared by the emulated TTL process (local.ttl_stream) and the sample events."""

from __future__ import annotations

import uuid
from typing import Any

from local.template import Template

TTL_SERVICE = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
STREAM_ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/bindery/stream/local"


def stream_subscriptions(template: Template) -> dict[str, dict[str, Any]]:
    """Function name → the properties of its subscription to the table's stream (an event of type
    DynamoDB in template.yaml)."""
    found = {}
    for name, resource in template.raw["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        for event in (resource["Properties"].get("Events") or {}).values():
            if event["Type"] == "DynamoDB":
                found[name] = event["Properties"]
    return found


def matches(pattern: Any, value: Any) -> bool:
    """Lambda's event filtering, for the forms template.yaml uses: nested objects, lists of exact values."""
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(key in value and matches(sub, value[key])
                                               for key, sub in pattern.items())
    if isinstance(pattern, list):
        return value in pattern
    return bool(pattern == value)


def removal_record(key: dict[str, str], sequence: int, *, at: int,
                   event_id: str | None = None) -> dict[str, Any]:
    """The stream record DynamoDB writes when its TTL process deletes an item (KEYS_ONLY view)."""
    return {
        "eventID": event_id or uuid.uuid4().hex, "eventName": "REMOVE", "eventVersion": "1.1",
        "eventSource": "aws:dynamodb", "awsRegion": "us-east-1", "eventSourceARN": STREAM_ARN,
        "userIdentity": dict(TTL_SERVICE),
        "dynamodb": {
            "ApproximateCreationDateTime": at,
            "Keys": {name: {"S": value} for name, value in key.items()},
            "SequenceNumber": f"{sequence:021d}", "SizeBytes": 64, "StreamViewType": "KEYS_ONLY",
        },
    }
