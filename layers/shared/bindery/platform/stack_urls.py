"""Where a deployed stack is reached, for links (`urls.app`, `urls.published`), the SSO return and link
reports: what the operator configured (custom domains: template parameters), else the stack's own API
Gateway URLs. Never localhost on Lambda.

A function cannot name its own REST API in its environment (the API's definition names the function:
a circular dependency), so the template writes the stack's URLs into one SSM parameter after the APIs
exist and names it in every function's environment; it is read once per environment, when a URL is
first needed (not at init: the parameter is created after the functions' first versions)."""

from __future__ import annotations

import json

from bindery.platform.config import settings

# The parameter's value never changes for the life of a stack (API ids are fixed): cached for a day.
_MAX_AGE_SECONDS = 86_400
# Off Lambda with nothing configured (a test calling a function directly): the historical placeholder.
_NOWHERE = "http://localhost/v1"


def _stack() -> dict[str, str] | None:
    """The stack's {"api": …, "sites": …}; None off Lambda without a parameter; RuntimeError on Lambda
    without one, naming what to set."""
    conf = settings()
    if not conf.stack_urls_parameter:
        if conf.on_lambda:
            raise RuntimeError("BINDERY_STACK_URLS_PARAMETER is not set (nor BINDERY_APP_URL, "
                               "BINDERY_SITES_URL): on Lambda the URLs are the stack's, never localhost")
        return None
    from aws_lambda_powertools.utilities import parameters

    value = parameters.get_parameter(conf.stack_urls_parameter, max_age=_MAX_AGE_SECONDS)
    urls: dict[str, str] = json.loads(str(value))
    return urls


def api_base() -> str:
    """The API's base URL when no request says it: the configured one, else the stack's."""
    stack = None if settings().public_url else _stack()
    base = settings().public_url or (stack["api"] if stack else _NOWHERE)
    return base.rstrip("/")


def app_base() -> str:
    """The app's base URL (no trailing slash): BINDERY_APP_URL, else the API's + /app."""
    return (settings().app_url or api_base() + "/app").rstrip("/")


def sites_base() -> str:
    """Where published sites are read: BINDERY_SITES_URL, else the readers' API stage."""
    if settings().sites_url:
        return settings().sites_url.rstrip("/")
    stack = _stack()
    if stack is None:
        raise RuntimeError("BINDERY_SITES_URL is not set")
    return stack["sites"].rstrip("/")
