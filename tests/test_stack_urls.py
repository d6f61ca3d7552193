"""On Lambda, links, published-site URLs and the SSO return are the stack's own (or the custom domains
configured), never the local runner's localhost defaults: a deployed SSO login must return to a page the
browser can reach."""

from __future__ import annotations

import json

import boto3
import pytest

from bindery.domain.sso import login
from bindery.platform import stack_urls
from bindery.platform.config import settings
from tests.settings_environment import changed_environment

STACK = {"api": "https://abc123.execute-api.eu-west-1.amazonaws.com/v1",
         "sites": "https://def456.execute-api.eu-west-1.amazonaws.com/sites"}
URLS = ("BINDERY_APP_URL", "BINDERY_SITES_URL", "BINDERY_PUBLIC_URL", "BINDERY_SSO_RETURN_URL")


@pytest.fixture
def on_lambda():
    """A Lambda environment as the template makes it, the custom-domain parameters left empty."""
    with changed_environment({"AWS_LAMBDA_FUNCTION_NAME": "bindery-SSOFunction-x",
                              "BINDERY_STACK_URLS_PARAMETER": None, **dict.fromkeys(URLS, "")}):
        yield


def _stack_parameter(name: str) -> None:
    boto3.client("ssm").put_parameter(Name=name, Type="String", Value=json.dumps(STACK), Overwrite=True)


def test_on_lambda_nothing_falls_back_to_localhost(on_lambda):
    assert settings().app_url == ""
    assert settings().sites_url == ""
    with pytest.raises(RuntimeError, match="BINDERY_STACK_URLS_PARAMETER is not set"):
        stack_urls.app_base()
    with pytest.raises(RuntimeError, match="BINDERY_STACK_URLS_PARAMETER is not set"):
        stack_urls.sites_base()


def test_on_lambda_the_urls_are_the_stacks_own(on_lambda):
    _stack_parameter("/bindery-test/urls")
    with changed_environment({"BINDERY_STACK_URLS_PARAMETER": "/bindery-test/urls"}):
        assert stack_urls.api_base() == STACK["api"]
        assert stack_urls.app_base() == STACK["api"] + "/app"
        assert stack_urls.sites_base() == STACK["sites"]


def test_custom_domains_win_over_the_stacks_urls(on_lambda):
    _stack_parameter("/bindery-domains/urls")
    with changed_environment({"BINDERY_STACK_URLS_PARAMETER": "/bindery-domains/urls",
                              "BINDERY_PUBLIC_URL": "https://api.example.com/v1",
                              "BINDERY_SITES_URL": "https://docs.example.com"}):
        assert stack_urls.app_base() == "https://api.example.com/v1/app"
        assert stack_urls.sites_base() == "https://docs.example.com"
        with changed_environment({"BINDERY_APP_URL": "https://app.example.com/"}):
            assert stack_urls.app_base() == "https://app.example.com"


def test_the_saml_return_of_a_deployed_stack_is_the_stacks(on_lambda):
    """Where consume() sends the browser, with its new token, once the assertion checks out."""
    _stack_parameter("/bindery-sso/urls")
    with changed_environment({"BINDERY_STACK_URLS_PARAMETER": "/bindery-sso/urls"}):
        assert login.return_url() == STACK["api"] + "/app/auth/saml"
        with changed_environment({"BINDERY_SSO_RETURN_URL": "https://app.example.com/sso"}):
            assert login.return_url() == "https://app.example.com/sso"
