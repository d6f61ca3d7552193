"""What a path parameter may look like, judged for every route where the request enters, before any
value reaches a DynamoDB key: DynamoDB refuses a partition key over 2,048 bytes and a sort key over 1,024
with a ValidationException, which would be a 500 (issue 39, F3).

- An id (`spaceId`, `organizationId`…): what `bindery.platform.ids.plausible` allows, else it names nothing
(404).
- `specSlug`: a spec's slug (schemas.openapi.SpecSlug). Read, changed or deleted: at most 100 characters,
  else 404. Created by PUT: the slug rule itself, else a 400 naming `specSlug`.
- Any other value (an integration's name, an email domain, a page path): at most 512 bytes of UTF-8
  (names and domains are far shorter; a page path is a few slugs), else 404.

Deleting what cannot exist is what deleting a missing resource is: a 204 (API.md), for the route's last
parameter, the thing the DELETE names; an impossible value above it is a 404 as ever.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bindery.platform.ids import plausible

SLUG_PARAMETER = "specSlug"
MAX_SLUG_LENGTH = 100
SLUG_PATTERN = re.compile(rf"(?=.{{1,{MAX_SLUG_LENGTH}}}\Z)[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_OTHER_BYTES = 512
_NAMED = {"specSlug": "OpenAPI specification", "integrationName": "integration", "pagePath": "page"}


@dataclass(frozen=True)
class Refusal:
    status: int  # 400, 404, or 204 (a DELETE of what cannot exist)
    message: str


def resource(parameter: str) -> str:
    """`changeRequestId` → "change request"; `specSlug` → "OpenAPI specification"."""
    if parameter in _NAMED:
        return _NAMED[parameter]
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", parameter.removesuffix("Id")).lower()


def _possible(name: str, value: str) -> bool:
    if name.endswith("Id"):
        return plausible(value)
    if name == SLUG_PARAMETER:
        return 0 < len(value) <= MAX_SLUG_LENGTH
    return 0 < len(value.encode("utf-8", errors="surrogatepass")) <= MAX_OTHER_BYTES


def refusal(method: str, parameters: list[tuple[str, str]]) -> Refusal | None:
    """The answer to a request whose path `parameters` (in the route's order) cannot name anything, or
    None when each could."""
    for position, (name, value) in enumerate(parameters):
        last = position == len(parameters) - 1
        if name == SLUG_PARAMETER and method == "PUT" and last and not SLUG_PATTERN.match(value):
            return Refusal(400, f"{name}: a slug is 1 to {MAX_SLUG_LENGTH} lowercase letters and digits, "
                                f"in words joined by single hyphens")
        if not _possible(name, value):
            if method == "DELETE" and last:
                return Refusal(204, "")
            return Refusal(404, f"No matching {resource(name)}")
    return None
