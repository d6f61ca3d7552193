// Members: GET/PATCH/DELETE /orgs/{id}/members[/{userId}], POST …/members/{userId}/sso,
// GET …/members/{userId}/teams.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('GET /orgs/{id}/members', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2, roles: ['edit', undefined] });
    });

    it('lists every member with their role; count is the member count', async () => {
        const list = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id));
        const byId = Object.fromEntries(list.items.map((m) => [m.id, m]));
        assert.deepEqual(Object.keys(byId).sort(), [fx.owner.userId, ...fx.members.map((m) => m.userId)].sort());
        assert.equal(byId[fx.owner.userId].role, 'admin');
        assert.equal(byId[fx.members[0].userId].role, 'edit');
        assert.equal(byId[fx.members[1].userId].role, 'read');
        assert.equal(byId[fx.members[1].userId].user.displayName, fx.members[1].name);
        if (list.count !== undefined) assert.equal(list.count, 3);
        assert.equal(list.next, undefined);
    });

    it('paginates with limit=1, each member exactly once, in joinedAt order', async () => {
        const desc = await walk((q) => fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, q), 1);
        assert.equal(new Set(desc.items.map((m) => m.id)).size, 3);
        assert.equal(desc.items.length, 3);
        const asc = await walk((q) => fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { ...q, order: 'asc' }), 2);
        assert.deepEqual(asc.items.map((m) => m.id), desc.items.map((m) => m.id).reverse());
        assert.equal(asc.items[0].id, fx.owner.userId, 'the founder joined first');
        for (let i = 1; i < asc.items.length; i += 1) assert.ok(asc.items[i - 1].joinedAt <= asc.items[i].joinedAt);
    });

    it('filters by role and by search', async () => {
        const admins = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { role: 'admin' }));
        assert.deepEqual(admins.items.map((m) => m.id), [fx.owner.userId]);
        const editors = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { role: 'edit' }));
        assert.deepEqual(editors.items.map((m) => m.id), [fx.members[0].userId]);
        const found = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { search: fx.members[1].name.split(' ')[0] }));
        assert.deepEqual(found.items.map((m) => m.id), [fx.members[1].userId]);
    });

    it('sort=lastSeenAt lists only active members, most recent first (API.md: "lastSeenAt lists only active members")', async () => {
        await expectOk(fx.members[1].api.orgs.updateOrganizationMemberLastSeenAt(fx.org.id));
        const seen = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[1].userId));
        assert.ok(seen.lastSeenAt, 'ping must set lastSeenAt');
        const sorted = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { sort: 'lastSeenAt', order: 'desc' }));
        assert.equal(sorted.items[0]?.id, fx.members[1].userId, 'the most recently seen member comes first');
        for (const member of sorted.items) {
            assert.ok(member.lastSeenAt, 'every member listed by activity has been active');
        }
        const neverSeen = fx.members.filter((m, i) => i !== 1).map((m) => m.userId);
        for (const id of neverSeen) {
            assert.ok(!sorted.items.some((m) => m.id === id) || sorted.items.find((m) => m.id === id).lastSeenAt);
        }
    });

    it('bad query parameters are a 400 naming them', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.listMembersInOrganizationById(fx.org.id, { role: 'owner' }), 400, /role/);
        await expectError(api.listMembersInOrganizationById(fx.org.id, { order: 'sideways' }), 400, /order/);
        await expectError(api.listMembersInOrganizationById(fx.org.id, { sort: 'name' }), 400, /sort/);
        await expectError(api.listMembersInOrganizationById(fx.org.id, { limit: 1001 }), 400, /limit/);
        await expectError(api.listMembersInOrganizationById(fx.org.id, { page: 'forged' }), 400, /page/);
    });

    it('a page cursor is bound to its listing: reused with another filter it is a 400', async () => {
        const first = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { limit: 1 }));
        assert.ok(first.next);
        await expectError(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id, { limit: 1, page: first.next.page, order: 'asc' }), 400, /page/);
    });

    it('another organization\'s members are a 404; no token is a 401', async () => {
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listMembersInOrganizationById(fx.org.id), 404);
        await expectError(fx.owner.api.orgs.listMembersInOrganizationById('no-such-org-0000'), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/members`);
    });
});

describe('GET/PATCH /orgs/{id}/members/{userId}', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2 });
    });

    it('GET returns the member, the user embedded', async () => {
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[0].userId));
        assert.equal(member.id, fx.members[0].userId);
        assert.equal(member.user.id, fx.members[0].userId);
        assert.equal(member.role, 'read');
        assert.equal(member.disabled, false);
        assert.equal(member.sso, false);
        // Members with a role see each other.
        const seen = await expectOk(fx.members[1].api.orgs.getMemberInOrganizationById(fx.org.id, fx.owner.userId));
        assert.equal(seen.role, 'admin');
    });

    it('PATCH changes the role, to a role and to null (guest), and it persists', async () => {
        const target = fx.members[0].userId;
        const edited = await expectOk(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, target, { role: 'create' }));
        assert.equal(edited.role, 'create');
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, target))).role, 'create');
        const guest = await expectOk(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, target, { role: null }));
        assert.equal(guest.role, null);
        // A guest sees their own membership only.
        const self = await expectOk(fx.members[0].api.orgs.getMemberInOrganizationById(fx.org.id, target));
        assert.equal(self.role, null);
        await expectError(fx.members[0].api.orgs.getMemberInOrganizationById(fx.org.id, fx.owner.userId), 403);
        await expectOk(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, target, { role: 'read' }));
    });

    it('PATCH with an invalid role is a 400 naming role', async () => {
        await expectError(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, fx.members[0].userId, { role: 'owner' }), 400, /role/);
        await expectError(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, fx.members[0].userId, { rol: 'edit' }), 400, /rol/);
    });

    it('demoting the last admin is a 400; a non-admin cannot change roles (403)', async () => {
        await expectError(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, fx.owner.userId, { role: 'edit' }), 400);
        await expectError(fx.members[1].api.orgs.updateMemberInOrganizationById(fx.org.id, fx.members[1].userId, { role: 'admin' }), 403);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[1].userId))).role, 'read');
    });

    it('an unknown member, another organization and no token: 404, 404, 401', async () => {
        await expectError(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, 'no-such-user-0000'), 404);
        await expectError(fx.owner.api.orgs.updateMemberInOrganizationById(fx.org.id, 'no-such-user-0000', { role: 'edit' }), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.getMemberInOrganizationById(fx.org.id, fx.owner.userId), 404);
        await expectError(stranger.api.orgs.updateMemberInOrganizationById(fx.org.id, stranger.userId, { role: 'admin' }), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/members/${fx.owner.userId}`);
        await expectUnauthorized(ctx, 'PATCH', `/orgs/${fx.org.id}/members/${fx.members[0].userId}`, { role: 'admin' });
    });
});

describe('POST /orgs/{id}/members/{userId}/sso', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2 });
    });

    it('marks the member as an SSO member', async () => {
        const member = await expectOk(fx.owner.api.orgs.setUserAsSsoMemberForOrganization(fx.org.id, fx.members[0].userId));
        assert.equal(member.id, fx.members[0].userId);
        assert.equal(member.sso, true);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[0].userId))).sso, true);
    });

    it('403 for a non-admin, 404 for an unknown member or another organization, 401 without a token', async () => {
        await expectError(fx.members[1].api.orgs.setUserAsSsoMemberForOrganization(fx.org.id, fx.members[1].userId), 403);
        await expectError(fx.owner.api.orgs.setUserAsSsoMemberForOrganization(fx.org.id, 'no-such-user-0000'), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.setUserAsSsoMemberForOrganization(fx.org.id, fx.owner.userId), 404);
        await expectUnauthorized(ctx, 'POST', `/orgs/${fx.org.id}/members/${fx.members[1].userId}/sso`);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[1].userId))).sso, false);
    });
});

describe('GET /orgs/{id}/members/{userId}/teams', () => {
    let fx;
    let teams;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
        const api = fx.owner.api.orgs;
        teams = [
            await expectOk(api.createOrganizationTeam(fx.org.id, { title: 'Alpha Team', members: [fx.members[0].userId] }), 201),
            await expectOk(api.createOrganizationTeam(fx.org.id, { title: 'Beta Team', members: [fx.members[0].userId] }), 201),
            await expectOk(api.createOrganizationTeam(fx.org.id, { title: 'Gamma Team' }), 201),
        ];
    });

    it('lists the member\'s teams with their team role', async () => {
        const list = await expectOk(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId));
        assert.deepEqual(list.items.map((i) => i.team.id).sort(), [teams[0].id, teams[1].id].sort());
        for (const item of list.items) assert.equal(item.member.role, 'member');
        const own = await expectOk(fx.members[0].api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId));
        assert.equal(own.items.length, 2);
        for (const item of own.items) assert.deepEqual(item.team.permissions, { admin: false, view: true });
        const none = await expectOk(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.owner.userId));
        assert.deepEqual(none.items, []);
    });

    it('paginates with limit=1 and filters by title', async () => {
        const all = await walk((q) => fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId, q), 1);
        assert.deepEqual(all.items.map((i) => i.team.id).sort(), [teams[0].id, teams[1].id].sort());
        const beta = await expectOk(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId, { title: 'beta' }));
        assert.deepEqual(beta.items.map((i) => i.team.id), [teams[1].id]);
    });

    it('400 for bad parameters, 404 for an unknown member or another organization, 401 without a token', async () => {
        await expectError(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId, { limit: 5000 }), 400, /limit/);
        await expectError(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId, { page: 'forged' }), 400, /page/);
        await expectError(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, 'no-such-user-0000'), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.owner.userId), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/members/${fx.members[0].userId}/teams`);
    });
});

describe('DELETE /orgs/{id}/members/{userId}', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 3 });
    });

    it('an admin removes a member (204): the member is gone and loses access', async () => {
        const target = fx.members[0];
        await expectOk(fx.owner.api.orgs.removeMemberFromOrganizationById(fx.org.id, target.userId), 204);
        await expectError(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, target.userId), 404);
        await expectError(target.api.orgs.getOrganizationById(fx.org.id), 404);
        const list = await expectOk(fx.owner.api.orgs.listMembersInOrganizationById(fx.org.id));
        assert.ok(!list.items.some((m) => m.id === target.userId));
        if (list.count !== undefined) assert.equal(list.count, 3);
    });

    it('a member leaves (removes themself) with 204', async () => {
        const leaver = fx.members[1];
        await expectOk(leaver.api.orgs.removeMemberFromOrganizationById(fx.org.id, leaver.userId), 204);
        await expectError(leaver.api.orgs.getOrganizationById(fx.org.id), 404);
    });

    it('removing the last admin is a 400; a non-admin removing someone else is a 403', async () => {
        await expectError(fx.owner.api.orgs.removeMemberFromOrganizationById(fx.org.id, fx.owner.userId), 400);
        await expectError(fx.members[2].api.orgs.removeMemberFromOrganizationById(fx.org.id, fx.owner.userId), 403);
        await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.owner.userId));
    });

    it('another organization is a 404; no token is a 401', async () => {
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.removeMemberFromOrganizationById(fx.org.id, fx.members[2].userId), 404);
        await expectUnauthorized(ctx, 'DELETE', `/orgs/${fx.org.id}/members/${fx.members[2].userId}`);
        await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[2].userId));
    });
});
