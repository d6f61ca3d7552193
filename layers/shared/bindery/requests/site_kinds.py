"""The values a site's type, visibility and agents context take, as the reference spec names them: what
the request bodies (bindery.requests.sites) and the Site shape (bindery.api.responses.sites) share, apart
from the bodies so that a function that shows sites without changing them imports none."""

from __future__ import annotations

from typing import Literal

SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
SiteVisibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SiteAgentsContext = Literal["excluded", "included"]
