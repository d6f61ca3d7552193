"""A site's customization and its site spaces' overrides (docs/sites.md).

The site's settings are a whole SiteCustomizationSettings document (PUT replaces it), validated against
the official schema (bindery.domain.sites.schemas); a site that was never customized has DEFAULT's. A site
space's overrides are a partial document (PATCH merges into them; a null resets that setting to the site's);
what a site space shows is the site's settings with its overrides merged in.
"""

from __future__ import annotations

import copy
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.sites.records import NO_SITE_SPACE, open_structure
from bindery.domain.sites.schemas import known_fields, problem
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, NotFound
from bindery.store import Transaction, TransactionConflict
from bindery.store import site_settings as settings_store
from bindery.store.site_structure import Structure

_COLOR = {"light": "#346DDB", "dark": "#346DDB"}
# What a new site looks like: the samples API.md gives (theme clean, corners straight, …).
DEFAULT: dict[str, Any] = {
    "styling": {
        "theme": "clean", "primaryColor": _COLOR, "infoColor": {"light": "#787878", "dark": "#787878"},
        "successColor": {"light": "#00C950", "dark": "#00C950"},
        "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
        "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"}, "corners": "straight", "depth": "subtle",
        "links": "default", "font": "Inter", "monospaceFont": "IBMPlexMono", "background": "plain",
        "icons": "regular", "sidebar": {"background": "default", "list": "default"}, "search": "prominent",
    },
    "internationalization": {"locale": "en"},
    "favicon": {},
    "header": {"preset": "default", "links": []},
    "footer": {"groups": []},
    "themes": {"default": "light", "toggeable": True},
    "pdf": {"enabled": True},
    "feedback": {"enabled": False},
    "ai": {"mode": "none"},
    "advancedCustomization": {"enabled": True},
    "git": {"showEditLink": False},
    "pageActions": {"externalAI": True, "markdown": True, "mcp": True},
    "externalLinks": {"target": "self"},
    "pagination": {"enabled": True},
    "trademark": {"enabled": True},
    "privacyPolicy": {},
    "socialPreview": {},
    "insights": {"trackingCookie": True},
}


def merged(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """`base` with `overrides` laid over it: objects merge key by key, anything else replaces."""
    out = copy.deepcopy(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and value:
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _patched(overrides: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Overrides after a PATCH: a null removes that override, objects merge, anything else replaces."""
    out = copy.deepcopy(overrides)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _patched(out[key], value)
            if not out[key]:
                del out[key]
        else:
            out[key] = copy.deepcopy(value)
    return out


def site_settings(structure: Structure) -> dict[str, Any]:
    return structure.customization or copy.deepcopy(DEFAULT)


def site_space_settings(structure: Structure, site_space_id: str) -> dict[str, Any]:
    return merged(site_settings(structure), structure.overrides.get(site_space_id, {}))


def get_site_customization(caller: Caller, org_id: str, site_id: str) -> dict[str, Any]:
    _, structure = open_structure(caller, org_id, site_id)
    return site_settings(structure)


def put_site_customization(caller: Caller, org_id: str, site_id: str, body: Any) -> dict[str, Any]:
    access, _ = open_structure(caller, org_id, site_id)
    access.require("admin", "customize sites")
    wrong = problem("site_customization", body, "body")
    if wrong:
        raise BadRequest(wrong)
    body = known_fields("site_customization", body)
    _commit(settings_store.put_customization_op(site_id, body, now_iso()), site_id)
    return dict(body)


def _site_space(structure: Structure, site_space_id: str) -> None:
    if structure.site_space(site_space_id) is None:
        raise NotFound(NO_SITE_SPACE)


def get_site_space_customization(caller: Caller, org_id: str, site_id: str, site_space_id: str
                                 ) -> dict[str, Any]:
    _, structure = open_structure(caller, org_id, site_id)
    _site_space(structure, site_space_id)
    return site_space_settings(structure, site_space_id)


def override_site_space_customization(caller: Caller, org_id: str, site_id: str, site_space_id: str,
                                      body: Any) -> dict[str, Any]:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "customize sites")
    _site_space(structure, site_space_id)
    wrong = problem("site_customization_override", body, "body")
    if wrong:
        raise BadRequest(wrong)
    overrides = _patched(structure.overrides.get(site_space_id, {}),
                         known_fields("site_customization_override", body))
    op = (settings_store.put_override_op(site_id, site_space_id, overrides, now_iso()) if overrides
          else settings_store.delete_override_op(site_id, site_space_id))
    _commit(op, site_id)
    structure.overrides[site_space_id] = overrides
    return site_space_settings(structure, site_space_id)


def delete_site_space_customization(caller: Caller, org_id: str, site_id: str, site_space_id: str) -> None:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "customize sites")
    if site_space_id in structure.overrides:
        _commit(settings_store.delete_override_op(site_id, site_space_id), site_id)


def _commit(op: Any, site_id: str) -> None:
    try:
        Transaction(settings_store.site_check_op(site_id), op).commit()
    except TransactionConflict:
        raise NotFound("No matching site") from None
