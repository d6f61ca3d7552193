"""The secret page cursors (and, off AWS, integration secrets' data keys) are keyed from.

Locally it is an environment variable (the runner derives one per data dir). A deployed stack generates
it in Secrets Manager (template.yaml CursorSecret) and names it in BINDERY_CURSOR_SECRET_ARN, so that the
value is in no environment variable, no parameter and no samconfig.toml; it is read once per environment,
when the first cursor is made or read."""

from __future__ import annotations

from bindery.platform.config import settings

# The secret is generated once per stack and never rotated (a new value would invalidate every cursor
# clients hold): an environment keeps the value it read.
_MAX_AGE_SECONDS = 86_400


def cursor_secret() -> str:
    """The secret, or RuntimeError naming the variable to set: without it a cursor could be forged."""
    conf = settings()
    if conf.cursor_secret:
        return conf.cursor_secret
    if conf.cursor_secret_arn:
        from aws_lambda_powertools.utilities import parameters

        return str(parameters.get_secret(conf.cursor_secret_arn, max_age=_MAX_AGE_SECONDS))
    raise RuntimeError("BINDERY_CURSOR_SECRET_ARN (or BINDERY_CURSOR_SECRET) is not set")
