// Spaces: POST/GET /orgs/{id}/spaces, GET/PATCH/DELETE /spaces/{spaceId},
// POST …/restore and POST …/duplicate. (The 7-day restore window needs a moved clock: tests/api.)
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

const ALL_PERMISSIONS = ['view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review', 'installIntegration'];

describe('POST /orgs/{id}/spaces (create)', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2, roles: ['read', 'create'] });
    });

    it('creates a space (201) in the spec shape, readable afterwards', async () => {
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Handbook', emoji: '📘', language: 'en' }), 201);
        assert.equal(space.object, 'space');
        assert.equal(space.title, 'Handbook');
        assert.equal(space.emoji, '📘');
        assert.equal(space.language, 'en');
        assert.equal(space.organization, fx.org.id);
        assert.equal(space.visibility, 'private');
        assert.equal(space.editMode, 'live');
        assert.equal(space.defaultLevel, 'inherit');
        assert.deepEqual(space.mergeRules, { type: 'inherit' });
        assert.deepEqual([space.comments, space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [0, 0, 0, 0]);
        for (const name of ALL_PERMISSIONS) assert.equal(space.permissions[name], true, name);
        assert.deepEqual(await expectOk(fx.owner.api.spaces.getSpaceById(space.id)), space);
    });

    it('creates a space inside a collection', async () => {
        const collection = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Guides' }), 201);
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Inside', parent: collection.id }), 201);
        assert.equal(space.parent, collection.id);
        await expectError(fx.owner.api.orgs.createSpace(fx.org.id, { parent: 'no-such-collection' }), 400, /parent/);
    });

    it('an invalid body is a 400 naming the field', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.createSpace(fx.org.id, { title: 'x'.repeat(51) }), 400, /title/);
        await expectError(api.createSpace(fx.org.id, { language: 'klingon' }), 400, /language/);
        await expectError(api.createSpace(fx.org.id, { editMode: 'frozen' }), 400, /editMode/);
    });

    it('403 below the create role, 404 for another organization, 401 without a token', async () => {
        await expectError(fx.members[0].api.orgs.createSpace(fx.org.id, { title: 'Mine' }), 403);
        const made = await expectOk(fx.members[1].api.orgs.createSpace(fx.org.id, { title: 'Creator' }), 201);
        assert.equal(made.permissions.admin, false);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.createSpace(fx.org.id, { title: 'Mine' }), 404);
        await expectUnauthorized(ctx, 'POST', `/orgs/${fx.org.id}/spaces`, { title: 'Mine' });
    });
});

describe('GET /orgs/{id}/spaces', () => {
    let fx;
    let spaces;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
        spaces = [];
        for (const title of ['One', 'Two', 'Three']) {
            spaces.push(await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title }), 201));
        }
    });

    it('lists the spaces in creation order, for a reader too', async () => {
        const list = await expectOk(fx.owner.api.orgs.listSpacesInOrganizationById(fx.org.id));
        assert.deepEqual(list.items.map((s) => s.id), spaces.map((s) => s.id));
        const seen = await expectOk(fx.members[0].api.orgs.listSpacesInOrganizationById(fx.org.id));
        assert.deepEqual(seen.items.map((s) => s.id), spaces.map((s) => s.id));
        for (const space of seen.items) assert.equal(space.permissions.edit, false);
    });

    it('paginates with limit=1, each space exactly once', async () => {
        const { items } = await walk((q) => fx.owner.api.orgs.listSpacesInOrganizationById(fx.org.id, q), 1);
        assert.deepEqual(items.map((s) => s.id), spaces.map((s) => s.id));
    });

    it('400 for bad parameters, 404 for another organization, 401 without a token', async () => {
        await expectError(fx.owner.api.orgs.listSpacesInOrganizationById(fx.org.id, { limit: 1001 }), 400, /limit/);
        await expectError(fx.owner.api.orgs.listSpacesInOrganizationById(fx.org.id, { page: 'forged' }), 400, /page/);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listSpacesInOrganizationById(fx.org.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/spaces`);
    });
});

describe('GET/PATCH /spaces/{spaceId}', () => {
    let fx;
    let space;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Settings' }), 201);
    });

    it('PATCH changes the sent fields; the change persists', async () => {
        const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.members[0].userId] }] };
        const updated = await expectOk(fx.owner.api.spaces.updateSpaceById(space.id, { title: 'Renamed', editMode: 'locked', defaultLevel: 'comment', mergeRules: rules, emoji: '🎉' }));
        assert.equal(updated.title, 'Renamed');
        assert.equal(updated.editMode, 'locked');
        assert.equal(updated.defaultLevel, 'comment');
        assert.deepEqual(updated.mergeRules, rules);
        assert.equal(updated.emoji, '🎉');
        assert.equal(updated.permissions.edit, false);
        assert.ok(updated.updatedAt > space.updatedAt);
        assert.deepEqual(await expectOk(fx.owner.api.spaces.getSpaceById(space.id)), updated);
        const icon = await expectOk(fx.owner.api.spaces.updateSpaceById(space.id, { icon: 'https://example.com/icon.png' }));
        assert.equal(icon.urls.icon, 'https://example.com/icon.png');
        assert.equal(icon.emoji, '');
    });

    it('400 naming the field, 403 for a non-admin, 404 for strangers and unknown ids', async () => {
        await expectError(fx.owner.api.spaces.updateSpaceById(space.id, { title: 'x'.repeat(51) }), 400, /title/);
        const outsider = await ctx.createUser();
        await expectError(fx.owner.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: [outsider.userId] }] } }), 400, /mergeRules/);
        await expectError(fx.members[0].api.spaces.updateSpaceById(space.id, { title: 'Mine' }), 403);
        await expectError(outsider.api.spaces.updateSpaceById(space.id, { title: 'Mine' }), 404);
        await expectError(outsider.api.spaces.getSpaceById(space.id), 404);
        await expectError(fx.owner.api.spaces.getSpaceById('no-such-space'), 404, /space/);
        await expectUnauthorized(ctx, 'GET', `/spaces/${space.id}`);
    });
});

describe('DELETE /spaces/{spaceId}, POST …/restore, POST …/duplicate', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('delete (204) hides the space; restore (200) brings it back; deleting twice is 204', async () => {
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Trash me' }), 201);
        await expectOk(fx.owner.api.spaces.deleteSpaceById(space.id), 204);
        await expectError(fx.owner.api.spaces.getSpaceById(space.id), 404);
        const list = await expectOk(fx.owner.api.orgs.listSpacesInOrganizationById(fx.org.id));
        assert.ok(!list.items.some((s) => s.id === space.id));
        await expectOk(fx.owner.api.spaces.deleteSpaceById(space.id), 204);
        await expectOk(fx.owner.api.spaces.deleteSpaceById('no-such-space'), 204);
        const restored = await expectOk(fx.owner.api.spaces.restoreSpace(space.id));
        assert.equal(restored.id, space.id);
        assert.equal(restored.title, 'Trash me');
        assert.equal(restored.deletedAt, undefined);
        assert.equal((await expectOk(fx.owner.api.spaces.getSpaceById(space.id))).title, 'Trash me');
    });

    it('only space admins delete and restore', async () => {
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Guarded' }), 201);
        await expectError(fx.members[0].api.spaces.deleteSpaceById(space.id), 403);
        await expectOk(fx.owner.api.spaces.deleteSpaceById(space.id), 204);
        await expectError(fx.members[0].api.spaces.restoreSpace(space.id), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.spaces.restoreSpace(space.id), 404);
        await expectError(fx.owner.api.spaces.restoreSpace('no-such-space'), 404);
    });

    it('duplicate (201) copies the settings under a copy title; the original is untouched', async () => {
        const original = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Original', emoji: '📘', editMode: 'locked' }), 201);
        const copy = await expectOk(fx.owner.api.spaces.duplicateSpace(original.id), 201);
        assert.notEqual(copy.id, original.id);
        assert.equal(copy.title, 'Original (copy)');
        assert.equal(copy.emoji, '📘');
        assert.equal(copy.editMode, 'locked');
        assert.deepEqual(await expectOk(fx.owner.api.spaces.getSpaceById(original.id)), original);
        await expectError(fx.members[0].api.spaces.duplicateSpace(original.id), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.spaces.duplicateSpace(original.id), 404);
    });
});
