// Space and collection permissions: POST /spaces/{id}/permissions, GET …/permissions/users|teams,
// PATCH/DELETE …/permissions/users/{userId} and …/teams/{teamId}, the same under /collections/{id},
// and GET /orgs/{id}/members/{userId}/spaces. The table of cases is in tests/api/spaces/test_permission_table.py.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized, unique } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

const roles = async (call) => Object.fromEntries((await walk(call, 1)).items.map((i) => [(i.user ?? i.team).id, i.permission]));

describe('space permissions', () => {
    let fx;
    let space;
    let team;
    before(async () => {
        // members: [0] read, [1] read (in the team), [2] edit
        fx = await orgWithMembers(ctx, { count: 3, roles: ['read', 'read', 'edit'] });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Private' }), 201);
        await expectOk(fx.owner.api.spaces.updateSpaceById(space.id, { defaultLevel: null }));
        team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Writers', members: [fx.members[1].userId] }), 201);
    });

    it('a private space is invisible until a user or their team is invited (204)', async () => {
        const [reader, writer] = fx.members;
        await expectError(reader.api.spaces.getSpaceById(space.id), 404);
        await expectOk(fx.owner.api.spaces.inviteToSpace(space.id, { role: 'comment', users: [reader.userId] }), 204);
        await expectOk(fx.owner.api.spaces.inviteToSpace(space.id, { role: 'review', teams: [team.id] }), 204);
        const seen = await expectOk(reader.api.spaces.getSpaceById(space.id));
        assert.equal(seen.permissions.comment, true);
        assert.equal(seen.permissions.edit, false);
        const viaTeam = await expectOk(writer.api.spaces.getSpaceById(space.id));
        assert.equal(viaTeam.permissions.merge, true);
        assert.equal(viaTeam.permissions.admin, false);
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, reader.userId));
        assert.equal(member.spaces, 1);
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).spaces, 1);
    });

    it('lists users and teams, paginated', async () => {
        const users = await expectOk(fx.owner.api.spaces.listUserPermissionsInSpace(space.id));
        assert.equal(users.count, 1);
        assert.equal(users.items[0].user.id, fx.members[0].userId);
        assert.equal(users.items[0].permission, 'comment');
        assert.deepEqual(await roles((q) => fx.owner.api.spaces.listTeamPermissionsInSpace(space.id, q)), { [team.id]: 'review' });
        const teams = await expectOk(fx.members[1].api.spaces.listTeamPermissionsInSpace(space.id));
        assert.deepEqual(teams.items[0].team.permissions, { admin: false, view: true });
    });

    it('invites by email, and makes someone outside the organization a guest', async () => {
        const outsider = await ctx.createUser();
        const email = `${unique('new')}@elsewhere.example`;
        await expectOk(fx.owner.api.spaces.inviteToSpace(space.id, { role: 'read', users: [fx.members[2].email, outsider.userId, email] }), 204);
        const granted = await roles((q) => fx.owner.api.spaces.listUserPermissionsInSpace(space.id, q));
        assert.equal(granted[fx.members[2].userId], 'read');
        assert.equal(granted[outsider.userId], 'read');
        assert.equal(Object.keys(granted).length, 4);
        const guest = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, outsider.userId));
        assert.equal(guest.role, null);
        assert.equal(guest.spaces, 1);
        await expectOk(outsider.api.spaces.getSpaceById(space.id));
    });

    it('PATCH changes a role, null removes it; DELETE answers 205 then 204', async () => {
        const [reader] = fx.members;
        await expectOk(fx.owner.api.spaces.updateUserPermissionInSpace(space.id, reader.userId, { role: 'edit' }), 204);
        assert.equal((await expectOk(reader.api.spaces.getSpaceById(space.id))).permissions.edit, true);
        await expectOk(fx.owner.api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: 'read' }), 204);
        await expectOk(fx.owner.api.spaces.updateUserPermissionInSpace(space.id, fx.members[2].userId, { role: null }), 204);
        await expectOk(fx.owner.api.spaces.removeUserFromSpace(space.id, reader.userId), 205);
        await expectOk(fx.owner.api.spaces.removeUserFromSpace(space.id, reader.userId), 204);
        await expectOk(fx.owner.api.spaces.removeTeamFromSpace(space.id, team.id), 205);
        await expectOk(fx.owner.api.spaces.removeTeamFromSpace(space.id, team.id), 204);
        await expectError(reader.api.spaces.getSpaceById(space.id), 404);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, reader.userId))).spaces, 0);
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).spaces, 0);
    });

    it('400 for bad bodies, 403 below admin, 404 for unknown ids and other organizations, 401 without a token', async () => {
        const api = fx.owner.api.spaces;
        await expectError(api.inviteToSpace(space.id, { role: 'edit' }), 400, /users or teams/);
        await expectError(api.inviteToSpace(space.id, { role: 'boss', users: [fx.members[0].userId] }), 400, /role/);
        await expectError(api.inviteToSpace(space.id, { role: 'edit', users: ['no-such-user-0000'] }), 404, /users/);
        await expectError(api.inviteToSpace(space.id, { role: 'edit', teams: ['no-such-team-0000'] }), 404, /teams/);
        await expectError(api.updateUserPermissionInSpace(space.id, fx.members[0].userId, { role: 'edit' }), 404);
        await expectError(api.updateUserPermissionInSpace(space.id, fx.members[0].userId, { role: 'owner' }), 400, /role/);
        const editor = fx.members[2];
        await expectOk(api.inviteToSpace(space.id, { role: 'edit', users: [editor.userId] }), 204);
        await expectError(editor.api.spaces.inviteToSpace(space.id, { role: 'admin', users: [editor.userId] }), 403, /admin/);
        await expectError(editor.api.spaces.removeTeamFromSpace(space.id, team.id), 403);
        await expectOk(editor.api.spaces.removeUserFromSpace(space.id, editor.userId), 205); // leaving
        const stranger = await ctx.createUser();
        await expectError(stranger.api.spaces.listUserPermissionsInSpace(space.id), 404);
        await expectError(stranger.api.spaces.inviteToSpace(space.id, { role: 'admin', users: [stranger.userId] }), 404);
        await expectError(api.listTeamPermissionsInSpace('no-such-space-0000'), 404);
        await expectUnauthorized(ctx, 'POST', `/spaces/${space.id}/permissions`, { role: 'read', users: [stranger.userId] });
        await expectUnauthorized(ctx, 'GET', `/spaces/${space.id}/permissions/users`);
        await expectUnauthorized(ctx, 'DELETE', `/spaces/${space.id}/permissions/teams/${team.id}`);
    });
});

describe('collection permissions', () => {
    let fx;
    let collection;
    let inside;
    let team;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2, roles: ['read', 'read'] });
        collection = await expectOk(fx.owner.api.orgs.createCollection(fx.org.id, { title: 'Guides' }), 201);
        await expectOk(fx.owner.api.collections.updateCollectionById(collection.id, { defaultLevel: null }));
        inside = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Inside', parent: collection.id }), 201);
        team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Crew', members: [fx.members[1].userId] }), 201);
    });

    it('a grant on a collection reaches the spaces inside it, and moves no space counter', async () => {
        const [reader, crew] = fx.members;
        await expectError(reader.api.spaces.getSpaceById(inside.id), 404);
        await expectOk(fx.owner.api.collections.inviteToCollection(collection.id, { role: 'edit', users: [reader.userId] }), 204);
        await expectOk(fx.owner.api.collections.inviteToCollection(collection.id, { role: 'create', teams: [team.id] }), 204);
        assert.equal((await expectOk(reader.api.spaces.getSpaceById(inside.id))).permissions.edit, true);
        assert.equal((await expectOk(crew.api.collections.getCollectionById(collection.id))).permissions.create, true);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, reader.userId))).spaces, 0);
        assert.deepEqual(await roles((q) => fx.owner.api.collections.listUserPermissionsInCollection(collection.id, q)), { [reader.userId]: 'edit' });
        assert.deepEqual(await roles((q) => fx.owner.api.collections.listTeamPermissionsInCollection(collection.id, q)), { [team.id]: 'create' });
    });

    it('PATCH, DELETE and their errors', async () => {
        const [reader] = fx.members;
        const api = fx.owner.api.collections;
        await expectOk(api.updateUserPermissionInCollection(collection.id, reader.userId, { role: 'read' }), 204);
        await expectOk(api.updateTeamPermissionInCollection(collection.id, team.id, { role: 'comment' }), 204);
        await expectError(reader.api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: 'admin' }), 403);
        await expectError(api.updateTeamPermissionInCollection(collection.id, 'no-such-team-0000', { role: 'read' }), 404);
        await expectOk(api.removeUserFromCollection(collection.id, reader.userId), 205);
        await expectOk(api.removeUserFromCollection(collection.id, reader.userId), 204);
        await expectOk(api.removeTeamFromCollection(collection.id, team.id), 205);
        await expectOk(api.removeTeamFromCollection(collection.id, team.id), 204);
        await expectError(reader.api.collections.getCollectionById(collection.id), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.collections.listTeamPermissionsInCollection(collection.id), 404);
        await expectUnauthorized(ctx, 'GET', `/collections/${collection.id}/permissions/teams`);
    });
});

describe('GET /orgs/{id}/members/{userId}/spaces', () => {
    let fx;
    let spaces;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        spaces = [];
        for (const [title, role] of [['One', 'edit'], ['Two', 'admin']]) {
            const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title }), 201);
            await expectOk(fx.owner.api.spaces.inviteToSpace(space.id, { role, users: [fx.members[0].userId] }), 204);
            spaces.push(space);
        }
    });

    it('lists the spaces the member was granted, newest first, paginated', async () => {
        const [member] = fx.members;
        const list = await expectOk(fx.owner.api.orgs.listSpacesForOrganizationMember(fx.org.id, member.userId));
        assert.deepEqual(list.items.map((i) => [i.space.id, i.permission]), [[spaces[1].id, 'admin'], [spaces[0].id, 'edit']]);
        const own = await expectOk(member.api.orgs.listSpacesForOrganizationMember(fx.org.id, member.userId, { order: 'asc' }));
        assert.deepEqual(own.items.map((i) => [i.space.id, i.space.permissions.admin]), [[spaces[0].id, false], [spaces[1].id, true]]);
        const { items } = await walk((q) => fx.owner.api.orgs.listSpacesForOrganizationMember(fx.org.id, member.userId, q), 1);
        assert.equal(items.length, 2);
    });

    it('400 for bad parameters, 404 for unknown members and other organizations, 401 without a token', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.listSpacesForOrganizationMember(fx.org.id, fx.members[0].userId, { page: 'forged' }), 400, /page/);
        await expectError(api.listSpacesForOrganizationMember(fx.org.id, fx.members[0].userId, { limit: 1001 }), 400, /limit/);
        await expectError(api.listSpacesForOrganizationMember(fx.org.id, 'no-such-user-0000'), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listSpacesForOrganizationMember(fx.org.id, fx.members[0].userId), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/members/${fx.members[0].userId}/spaces`);
    });
});
