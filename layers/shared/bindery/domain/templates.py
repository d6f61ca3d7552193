"""Applying a template to a space (`POST /spaces/{spaceId}/content/template`, docs/templates.md).

A template adds its pages after the space's top-level pages, whatever is already there (slugs that
would collide get a suffix): one new revision on top of the current one, committed with
`commit_revision` and moved to with `advance_space`. Needs the edit role and a space that is not locked.

Reads: the access check (GetItem + BatchGetItem), the current revision and its tree (GetItem each, none
when cached), and for the `openapi` template the spec file's bytes (one S3 GET). Writes: one
BatchWriteItem (the new documents and the tree), one PutItem (the revision), one UpdateItem (the space).
When another writer moved the space meanwhile, it starts over on the new revision (a few times).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import space_access
from bindery.domain.revisions import RevisionMoved, advance_space, commit_revision
from bindery.domain.spaces.edit_mode import require_editable
from bindery.engines.content.templates import NewPage, add_pages, page_set
from bindery.engines.content.tree import Tree
from bindery.engines.openapi.documents import parse, require_spec
from bindery.engines.openapi.errors import ProcessingFailed
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.requests.templates import ApplySpaceTemplate, FileRef, OpenApiRef, UrlRef
from bindery.store import blobs
from bindery.store import openapi_specs as openapi_store
from bindery.store import revisions as revision_store
from bindery.store.spaces import Space

ATTEMPTS = 3
SPEC = "params.contentRefs.spec"
SPEC_MAX_BYTES = 10 * 1024 * 1024


def _spec_document(space_id: str, tree: Tree, ref: FileRef) -> Mapping[str, Any]:
    """The OpenAPI (or Swagger 2) document stored as the file `ref` names, parsed as JSON or YAML."""
    entry = tree.file(ref.file)
    if entry is None or not entry.get("digest"):
        raise BadRequest(f"{SPEC}: no matching file in this space")
    if int(entry.get("size") or 0) > SPEC_MAX_BYTES:
        raise BadRequest(f"{SPEC}: the file is larger than {SPEC_MAX_BYTES // (1024 * 1024)} MB")
    data = blobs.read_file(space_id, str(entry["digest"]))
    if data is None:
        raise BadRequest(f"{SPEC}: the file's content is missing")
    try:  # the OpenAPI engine's reader: JSON, else YAML read as JSON would be (imported on use)
        spec: Mapping[str, Any] | None = require_spec(parse(data, "spec"), "spec")
    except ProcessingFailed:
        spec = None
    if spec is None or not isinstance(spec.get("paths"), Mapping):
        raise BadRequest(f"{SPEC}: the file is not an OpenAPI document (JSON or YAML with openapi and paths)")
    return spec


def _computed_reference(space: Space, ref: OpenApiRef) -> list[NewPage]:
    """An "API reference" computed page (`builtin:openapi`) on an OpenAPI specification of the space's
    organization: computed from the spec's latest version whenever it is read (docs/openapi.md)."""
    spec = openapi_store.get_spec_by_ref(space.org_id, ref.spec)
    if spec is None:
        raise BadRequest(f"{SPEC}: no OpenAPI specification {ref.spec!r} in this organization")
    ref_to_spec = {"kind": "openapi", "spec": spec.slug}  # the official ContentRefOpenAPI names a slug
    source = {"type": "builtin:openapi", "dependencies": {"spec": {"ref": ref_to_spec}},
              "props": {"models": True}}
    return [NewPage("API reference", None, computed=source)]


def _pages(space: Space, tree: Tree, body: ApplySpaceTemplate) -> list[NewPage]:
    if body.id != "openapi":
        return page_set(body.id)
    ref = body.params.contentRefs.get("spec")
    if ref is None:
        raise BadRequest(f"{SPEC}: the openapi template needs the spec, as a file or OpenAPI reference")
    if isinstance(ref, OpenApiRef):
        return _computed_reference(space, ref)
    space_id = space.id
    if isinstance(ref, UrlRef):
        # Listing the operations means reading the spec; Bindery does not fetch URLs on a caller's behalf.
        raise BadRequest(f"{SPEC}: a URL spec cannot be read; upload the spec to the space and reference "
                         "the file")
    if not isinstance(ref, FileRef):
        raise BadRequest(f"{SPEC}: must be a file or OpenAPI reference (kind: file or openapi)")
    spec = _spec_document(space_id, tree, ref)
    pages = page_set("openapi", spec_ref=ref.model_dump(), spec=spec)
    if not pages[0].children:
        raise BadRequest(f"{SPEC}: the OpenAPI document has no operations")
    return pages


def apply_template(caller: Caller, space_id: str, body: ApplySpaceTemplate) -> None:
    for _ in range(ATTEMPTS):
        access = space_access(caller, space_id)
        access.require("edit", "apply a template to this space")
        space = access.node
        assert isinstance(space, Space)
        require_editable(space)
        revision = revision_store.get_revision(space_id, space.revision)
        if revision is None:
            raise NotFound("No matching revision")
        tree = revision_store.load_tree(revision)
        value, documents = add_pages(tree.value, _pages(space, tree, body), new_id=new_id, now=now_iso())
        committed = commit_revision(space_id, [revision.id], value, documents)
        try:
            advance_space(space, revision.id, committed)
        except RevisionMoved:
            continue  # someone else changed the content: add the pages to their revision instead
        return
    raise Conflict("The space's content kept changing while applying the template; nothing was changed.")
