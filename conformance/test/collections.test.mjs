// Collections and the tree: POST/GET /orgs/{id}/collections, GET/PATCH/DELETE /collections/{id},
// GET …/spaces, POST /spaces/{id}/move, POST /collections/{id}/move, POST /spaces/{id}/transfer and
// POST /collections/{id}/transfer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { createOrg, orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

const ids = (items) => items.map((item) => item.id);

describe('POST/GET /orgs/{id}/collections', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2, roles: ['read', 'create'] });
    });

    it('creates a collection (201) in the spec shape, readable afterwards', async () => {
        const made = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Guides' }), 201);
        assert.equal(made.object, 'collection');
        assert.equal(made.title, 'Guides');
        assert.equal(made.organization, fx.org.id);
        assert.equal(made.defaultLevel, 'inherit');
        assert.deepEqual(made.permissions, { view: true, admin: true, viewInviteLinks: true, create: true });
        assert.deepEqual(await expectOk(fx.owner.api.collections.getCollectionById(made.id)), made);
        const inner = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Inner', parent: made.id }), 201);
        assert.equal(inner.parent, made.id);
    });

    it('lists every collection (nested, the default) or the top level only, page by page', async () => {
        const org = await createOrg(ctx, fx.owner.token, { title: 'Listing' });
        const top = await expectOk(fx.owner.api.orgs.createCollection(org.id, { title: 'Top' }), 201);
        const inner = await expectOk(fx.owner.api.orgs.createCollection(org.id, { title: 'Inner', parent: top.id }), 201);
        const other = await expectOk(fx.owner.api.orgs.createCollection(org.id, { title: 'Other' }), 201);
        const all = await walk((q) => fx.owner.api.orgs.listCollectionsInOrganizationById(org.id, q), 1);
        assert.deepEqual(ids(all.items), [top.id, inner.id, other.id]);
        const topLevel = await walk((q) => fx.owner.api.orgs.listCollectionsInOrganizationById(org.id, { ...q, nested: false }), 1);
        assert.deepEqual(ids(topLevel.items), [top.id, other.id]);
    });

    it('400 naming the field, 403 below create, 404 for strangers, 401 without a token', async () => {
        await expectError(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'x'.repeat(51) }), 400, /title/);
        await expectError(fx.owner.api.orgs.createCollection(fx.org.id, { parent: 'no-such-collection' }), 400, /parent/);
        await expectError(fx.members[0].api.orgs.createCollection(fx.org.id, { title: 'Mine' }), 403);
        const made = await expectOk(fx.members[1].api.orgs.createCollection(fx.org.id, { title: 'Creator' }), 201);
        assert.equal(made.permissions.admin, false);
        await expectError(fx.owner.api.orgs.listCollectionsInOrganizationById(fx.org.id, { page: 'forged' }), 400, /page/);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.createCollection(fx.org.id, { title: 'Mine' }), 404);
        await expectError(stranger.api.orgs.listCollectionsInOrganizationById(fx.org.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/collections`);
    });
});

describe('GET/PATCH/DELETE /collections/{id} and GET …/spaces', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('PATCH changes the sent fields; a null level hides it from members without a grant', async () => {
        const made = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Settings' }), 201);
        const updated = await expectOk(fx.owner.api.collections.updateCollectionById(made.id, { title: 'Renamed', description: 'About', defaultLevel: null }));
        assert.equal(updated.title, 'Renamed');
        assert.equal(updated.description, 'About');
        assert.equal(updated.defaultLevel, null);
        assert.deepEqual(await expectOk(fx.owner.api.collections.getCollectionById(made.id)), updated);
        await expectError(fx.members[0].api.collections.getCollectionById(made.id), 404);
        await expectError(fx.owner.api.collections.updateCollectionById(made.id, { description: 'x'.repeat(101) }), 400, /description/);
    });

    it('lists the spaces in it, in sibling order, page by page', async () => {
        const holder = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Holder' }), 201);
        const spaces = [];
        for (const title of ['One', 'Two', 'Three']) {
            spaces.push(await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title, parent: holder.id }), 201));
        }
        const { items } = await walk((q) => fx.owner.api.collections.listSpacesInCollectionById(holder.id, q), 2);
        assert.deepEqual(ids(items), ids(spaces));
        for (const space of items) assert.equal(space.parent, holder.id);
    });

    it('DELETE is 204, also when missing; a collection holding content is refused', async () => {
        const holder = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Full' }), 201);
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { parent: holder.id }), 201);
        await expectError(fx.owner.api.collections.deleteCollectionById(holder.id), 400, /still holds/);
        await expectError(fx.members[0].api.collections.deleteCollectionById(holder.id), 403);
        await expectOk(fx.owner.api.spaces.deleteSpaceById(space.id), 204);
        await expectOk(fx.owner.api.collections.deleteCollectionById(holder.id), 204);
        await expectError(fx.owner.api.collections.getCollectionById(holder.id), 404);
        await expectOk(fx.owner.api.collections.deleteCollectionById(holder.id), 204);
        await expectUnauthorized(ctx, 'DELETE', `/collections/${holder.id}`);
    });
});

describe('POST /spaces/{id}/move and /collections/{id}/move', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('reorders and re-parents; listings follow at once', async () => {
        const org = await createOrg(ctx, fx.owner.token, { title: 'Moves' });
        const api = fx.owner.api;
        const holder = await expectOk(api.orgs.createCollection(org.id, { title: 'Holder' }), 201);
        const [a, b] = [
            await expectOk(api.orgs.createSpace(org.id, { title: 'A', parent: holder.id }), 201),
            await expectOk(api.orgs.createSpace(org.id, { title: 'B', parent: holder.id }), 201),
        ];
        const moved = await expectOk(api.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: a.id } } }));
        assert.equal(moved.parent, holder.id);
        const listed = await expectOk(api.collections.listSpacesInCollectionById(holder.id));
        assert.deepEqual(ids(listed.items), [b.id, a.id]);
        const out = await expectOk(api.spaces.moveSpace(a.id, { parent: null }));
        assert.equal(out.parent, undefined);
        const other = await expectOk(api.orgs.createCollection(org.id, { title: 'Other' }), 201);
        const nested = await expectOk(api.collections.moveCollection(other.id, { parent: holder.id }));
        assert.equal(nested.parent, holder.id);
        const top = await expectOk(api.orgs.listCollectionsInOrganizationById(org.id, { nested: false }));
        assert.deepEqual(ids(top.items), [holder.id]);
    });

    it('400 for invalid positions and cycles, 404 for unknown targets, 409 for no change, 403 below admin', async () => {
        const api = fx.owner.api;
        const top = await expectOk(api.orgs.createCollection(fx.org.id, { title: 'Top' }), 201);
        const child = await expectOk(api.orgs.createCollection(fx.org.id, { title: 'Child', parent: top.id }), 201);
        const space = await expectOk(api.orgs.createSpace(fx.org.id, { title: 'Loose' }), 201);
        await expectError(api.collections.moveCollection(top.id, { parent: child.id }), 400, /into itself/);
        await expectError(api.spaces.moveSpace(space.id, { position: { after: { type: 'collection', collection: child.id } } }), 400, /invalid position/);
        await expectError(api.spaces.moveSpace(space.id, { parent: 'no-such-collection' }), 404);
        await expectError(api.collections.moveCollection('no-such-collection', { parent: null }), 404);
        await expectError(api.collections.moveCollection(child.id, { parent: top.id }), 409, /would not change/);
        await expectError(api.spaces.moveSpace(space.id, {}), 400);
        await expectError(fx.members[0].api.spaces.moveSpace(space.id, { parent: top.id }), 403);
        await expectUnauthorized(ctx, 'POST', `/spaces/${space.id}/move`, { parent: null });
    });
});

describe('POST /spaces/{id}/transfer and /collections/{id}/transfer', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('moves the item and its content to another organization of the admin', async () => {
        const api = fx.owner.api;
        const target = await createOrg(ctx, fx.owner.token, { title: 'Target' });
        const holder = await expectOk(api.orgs.createCollection(fx.org.id, { title: 'Moving' }), 201);
        const inside = await expectOk(api.orgs.createSpace(fx.org.id, { title: 'Inside', parent: holder.id }), 201);
        const moved = await expectOk(api.collections.transferCollection(holder.id, { organization: target.id }));
        assert.equal(moved.organization, target.id);
        const space = await expectOk(api.spaces.getSpaceById(inside.id));
        assert.equal(space.organization, target.id);
        assert.equal(space.parent, holder.id);
        const loose = await expectOk(api.orgs.createSpace(fx.org.id, { title: 'Loose' }), 201);
        const transferred = await expectOk(api.spaces.transferSpace(loose.id, { organization: target.id }));
        assert.equal(transferred.organization, target.id);
        const listed = await expectOk(api.orgs.listSpacesInOrganizationById(target.id));
        assert.deepEqual(ids(listed.items).sort(), [inside.id, loose.id].sort());
    });

    it('409 for the same organization, 404 for strangers and unknown targets, 403 for non-admins', async () => {
        const api = fx.owner.api;
        const space = await expectOk(api.orgs.createSpace(fx.org.id, { title: 'Stay' }), 201);
        await expectError(api.spaces.transferSpace(space.id, { organization: fx.org.id }), 409, /would not change/);
        await expectError(api.spaces.transferSpace(space.id, { organization: 'no-such-org' }), 404);
        const stranger = await ctx.createUser();
        const theirs = await createOrg(ctx, stranger.token, { title: 'Theirs' });
        await expectError(api.spaces.transferSpace(space.id, { organization: theirs.id }), 404);
        await expectError(stranger.api.spaces.transferSpace(space.id, { organization: theirs.id }), 404);
        await expectError(fx.members[0].api.spaces.transferSpace(space.id, { organization: theirs.id }), 403);
        await expectUnauthorized(ctx, 'POST', `/spaces/${space.id}/transfer`, { organization: theirs.id });
    });
});
