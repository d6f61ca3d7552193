"""Configuration as one pydantic model, read from the environment once per process."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

# The queues whose work nothing else would ever do: a request that needs one refuses to start without it.
LOCAL_APP_URL = "http://127.0.0.1:3000/app"
LOCAL_SITES_URL = "http://127.0.0.1:3000/sites"
RequiredQueue = Literal["git_sync_queue_url", "openapi_queue_url", "translation_queue_url",
                        "conversations_queue_url"]


class Settings(BaseModel):
    table_name: str = Field(default="bindery", min_length=3)
    blob_bucket: str = "bindery-blobs"
    # Endpoints are only set off AWS (DynamoDB Local, moto); on Lambda boto3 finds the service itself.
    dynamodb_endpoint: str | None = None
    s3_endpoint: str | None = None
    # None: boto3 resolves the region as it always does (AWS_REGION, AWS_DEFAULT_REGION, the profile's
    # config): `python -m bindery.platform.admin` with a profile reaches the stack's region (Lambda sets
    # AWS_REGION).
    region: str | None = None
    # Page cursors are encrypted with a key derived from it. Local runs derive one per data dir; a deployed
    # stack names its Secrets Manager secret instead (cursor_secret_arn, read by bindery.deployed_secrets).
    cursor_secret: str = Field(default="", repr=False)
    cursor_secret_arn: str = ""
    # Set by Lambda (AWS_LAMBDA_FUNCTION_NAME): the local defaults below (localhost) never apply there.
    on_lambda: bool = False
    # Empty on AWS: the base URL then comes from each request (see bindery.api.wire.urls), else the stack's.
    public_url: str = ""
    # The app's base URL (`urls.app` links, the SSO return). Empty on Lambda: the API's URL + /app
    # (bindery.platform.stack_urls).
    app_url: str = LOCAL_APP_URL
    # Where published sites are read when neither the site nor its organization has a hostname: the
    # site is at {sites_url}/{organizationId}/{basename or id} (docs/sites.md). Empty on Lambda: the
    # readers' API stage (bindery.platform.stack_urls).
    sites_url: str = LOCAL_SITES_URL
    # On AWS, the SSM parameter holding the stack's own API and sites URLs (template.yaml StackUrls): a
    # function cannot name its own API in its environment (a circular dependency in CloudFormation).
    stack_urls_parameter: str = ""
    # Where a SAML login sends the browser with its new API token (in the URL fragment); empty: the app's
    # `/auth/saml` page (docs/sso.md).
    sso_return_url: str = ""
    # Background work (SQS). Empty: nothing is queued (set by the template, the local runner and tests).
    git_sync_queue_url: str = ""
    search_index_queue_url: str = ""
    openapi_queue_url: str = ""
    sqs_endpoint: str | None = None
    # Git Sync may read and write `file://` repositories only where this is on (the local runner);
    # outbound fetches (Git Sync, file uploads by URL) refuse loopback and private addresses unless
    # `allow_private_hosts` is on (the local runner, whose own blob URLs are on 127.0.0.1).
    git_allow_file_urls: bool = False
    allow_private_hosts: bool = False
    # OpenAPI processing fetches a spec (and the files its `$ref`s name) with these bounds (docs/openapi.md).
    openapi_fetch_timeout: float = Field(default=10.0, gt=0)
    openapi_max_bytes: int = Field(default=10 * 1024 * 1024, gt=0)
    # Translation runs (docs/translations.md): the queue, and the translator backend with its bounds.
    translation_queue_url: str = ""
    translation_backend: str = ""
    translation_url: str = ""
    translation_api_key: str = Field(default="", repr=False)
    translation_api_key_secret: str = ""
    translation_model: str = ""
    translation_timeout: float = Field(default=60.0, gt=0)
    translation_retries: int = Field(default=4, ge=0, le=10)
    translation_backoff: float = Field(default=1.0, ge=0)
    translation_batch_chars: int = Field(default=8000, gt=0)
    translation_max_request_bytes: int = Field(default=120_000, gt=0)
    # Conversation insights (docs/conversations.md): "" or "builtin" (no hosted model), or "openai" to ask
    # the chat completions endpoint configured above for each conversation's issues.
    insights_extractor: str = ""
    # The issues' sentence embeddings: "" or "builtin" (the packaged model), or "openai" (the /embeddings
    # endpoint of the translations' OpenAI-compatible server, with BINDERY_INSIGHTS_EMBEDDINGS_MODEL).
    insights_embeddings: str = ""
    insights_embeddings_model: str = ""
    # Integration secrets are encrypted under data keys from this KMS key (bindery.platform.secret_box); unset
    # (the local runner, tests) they are encrypted with a key derived from the cursor secret instead.
    secrets_kms_key: str = ""
    # Integration events (docs/integrations.md): their queue, and each delivery's timeout.
    integration_events_queue_url: str = ""
    integration_delivery_timeout: float = Field(default=10.0, gt=0)
    # Ingested conversations are processed from this queue (docs/conversations.md).
    conversations_queue_url: str = ""

    def required_queue_url(self, name: RequiredQueue) -> str:
        """The queue's URL, or RuntimeError naming its variable: the template, the local runner and the
        tests set it, and work queued nowhere would never be done (a run or a spec pending for good)."""
        url: str = getattr(self, name)
        if not url:
            raise RuntimeError(f"{_ENV[name]} is not set")
        return url


# Lambda sets it in every function's environment (sam local too).
LAMBDA_FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME"

_ENV = {
    "table_name": "BINDERY_TABLE",
    "blob_bucket": "BINDERY_BUCKET",
    "dynamodb_endpoint": "BINDERY_DYNAMODB_ENDPOINT",
    "s3_endpoint": "BINDERY_S3_ENDPOINT",
    "region": "AWS_REGION",
    "cursor_secret": "BINDERY_CURSOR_SECRET",
    "cursor_secret_arn": "BINDERY_CURSOR_SECRET_ARN",
    "stack_urls_parameter": "BINDERY_STACK_URLS_PARAMETER",
    "public_url": "BINDERY_PUBLIC_URL",
    "app_url": "BINDERY_APP_URL",
    "sites_url": "BINDERY_SITES_URL",
    "sso_return_url": "BINDERY_SSO_RETURN_URL",
    "git_sync_queue_url": "BINDERY_GIT_SYNC_QUEUE_URL",
    "search_index_queue_url": "BINDERY_SEARCH_INDEX_QUEUE_URL",
    "openapi_queue_url": "BINDERY_OPENAPI_QUEUE_URL",
    "sqs_endpoint": "BINDERY_SQS_ENDPOINT",
    "git_allow_file_urls": "BINDERY_GIT_ALLOW_FILE_URLS",
    "allow_private_hosts": "BINDERY_ALLOW_PRIVATE_HOSTS",
    "openapi_fetch_timeout": "BINDERY_OPENAPI_FETCH_TIMEOUT",
    "openapi_max_bytes": "BINDERY_OPENAPI_MAX_BYTES",
    "translation_queue_url": "BINDERY_TRANSLATION_QUEUE_URL",
    "translation_backend": "BINDERY_TRANSLATION_BACKEND",
    "translation_url": "BINDERY_TRANSLATION_URL",
    "translation_api_key": "BINDERY_TRANSLATION_API_KEY",
    "translation_api_key_secret": "BINDERY_TRANSLATION_API_KEY_SECRET",
    "translation_model": "BINDERY_TRANSLATION_MODEL",
    "translation_timeout": "BINDERY_TRANSLATION_TIMEOUT",
    "translation_retries": "BINDERY_TRANSLATION_RETRIES",
    "translation_backoff": "BINDERY_TRANSLATION_BACKOFF",
    "translation_batch_chars": "BINDERY_TRANSLATION_BATCH_CHARS",
    "translation_max_request_bytes": "BINDERY_TRANSLATION_MAX_REQUEST_BYTES",
    "insights_extractor": "BINDERY_INSIGHTS_EXTRACTOR",
    "insights_embeddings": "BINDERY_INSIGHTS_EMBEDDINGS",
    "insights_embeddings_model": "BINDERY_INSIGHTS_EMBEDDINGS_MODEL",
    "secrets_kms_key": "BINDERY_SECRETS_KMS_KEY",
    "integration_events_queue_url": "BINDERY_INTEGRATION_EVENTS_QUEUE_URL",
    "integration_delivery_timeout": "BINDERY_INTEGRATION_DELIVERY_TIMEOUT",
    "conversations_queue_url": "BINDERY_CONVERSATIONS_QUEUE_URL",
}


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings; tests that change the environment call `settings.cache_clear()`."""
    values: dict[str, object] = {field: os.environ[env] for field, env in _ENV.items() if os.environ.get(env)}
    if os.environ.get(LAMBDA_FUNCTION_NAME):
        # On Lambda a URL not configured is the stack's own (bindery.platform.stack_urls), never the local
        # default.
        values = {"app_url": "", "sites_url": "", **values, "on_lambda": True}
    return Settings.model_validate(values)
