"""The values an integration's scopes, categories, target and visibility and an installation's
selections take, as the reference spec names them: what the request bodies (bindery.requests.integrations)
and the response shapes (bindery.api.responses.integrations) share, apart from the bodies so that a
function that shows integrations without publishing or installing them imports none."""

from __future__ import annotations

from typing import Literal

Scope = Literal["space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write",
                "space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read",
                "site:script:inject", "site:script:cookies", "site:visitor:auth", "site:adaptive:read",
                "site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest"]
Category = Literal["analytics", "collaboration", "content", "gitsync", "marketing", "visitor-auth", "other"]
Target = Literal["all", "site", "space", "organization"]
Visibility = Literal["public", "private", "unlisted"]
Selection = Literal["all", "selected"]
