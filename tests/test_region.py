"""The layer's AWS clients, and so `python -m bindery.platform.admin`, find the region as boto3 always does:
AWS_REGION, else AWS_DEFAULT_REGION, else the profile's config. An admin with a profile for eu-west-1
must not write to a table of the same name in us-east-1."""

from __future__ import annotations

import boto3
import pytest

from bindery.platform import aws
from tests.settings_environment import changed_environment


@pytest.fixture
def clients():
    """A fresh process's handles: boto3's default session too, which reads the profile when made."""
    aws.reset()
    boto3.DEFAULT_SESSION = None
    yield
    aws.reset()
    boto3.DEFAULT_SESSION = None


def test_aws_default_region_is_used_without_aws_region(clients):
    with changed_environment({"AWS_REGION": None, "AWS_DEFAULT_REGION": "eu-west-1"}):
        aws.reset()
        assert aws.dynamodb_client().meta.region_name == "eu-west-1"
        assert aws.s3_client().meta.region_name == "eu-west-1"


def test_the_profiles_region_is_used_without_either_variable(clients, tmp_path):
    config = tmp_path / "config"
    config.write_text("[profile ops]\nregion = ap-southeast-2\n")
    with changed_environment({"AWS_REGION": None, "AWS_DEFAULT_REGION": None, "AWS_PROFILE": "ops",
                              "AWS_CONFIG_FILE": str(config)}):
        aws.reset()
        boto3.DEFAULT_SESSION = None
        assert aws.dynamodb_client().meta.region_name == "ap-southeast-2"


def test_aws_region_wins_as_on_lambda(clients):
    with changed_environment({"AWS_REGION": "eu-central-1", "AWS_DEFAULT_REGION": "eu-west-1"}):
        aws.reset()
        assert aws.sqs_client().meta.region_name == "eu-central-1"
