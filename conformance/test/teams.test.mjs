// Teams: GET/PUT /orgs/{id}/teams, GET/PATCH/DELETE …/teams/{teamId},
// GET/PUT …/teams/{teamId}/members, PUT/DELETE …/teams/{teamId}/members/{userId}.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('PUT /orgs/{id}/teams (create)', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2 });
    });

    it('creates a team (201) with the listed members', async () => {
        const team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Writers', members: fx.members.map((m) => m.userId) }), 201);
        assert.equal(team.title, 'Writers');
        assert.equal(team.members, 2);
        assert.equal(team.spaces, 0);
        assert.deepEqual(team.permissions, { admin: true, view: true });
        const members = await expectOk(fx.owner.api.orgs.listTeamMembersInOrganizationById(fx.org.id, team.id));
        assert.deepEqual(members.items.map((m) => m.organization.id).sort(), fx.members.map((m) => m.userId).sort());
        for (const m of members.items) assert.equal(m.team.role, 'member');
        // The member's `teams` counter follows.
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[0].userId));
        assert.equal(member.teams, 1);
    });

    it('creates a team without members', async () => {
        const team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Empty' }), 201);
        assert.equal(team.members, 0);
    });

    it('an invalid body is a 400 naming the field', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.createOrganizationTeam(fx.org.id, {}), 400, /title/);
        await expectError(api.createOrganizationTeam(fx.org.id, { title: '' }), 400, /title/);
        await expectError(api.createOrganizationTeam(fx.org.id, { title: 'x'.repeat(65) }), 400, /title/);
        await expectError(api.createOrganizationTeam(fx.org.id, { title: 'Bad', members: 'everyone' }), 400, /members/);
        await expectError(api.createOrganizationTeam(fx.org.id, { title: 'Bad', members: ['no-such-user-0000'] }), 400, /members/);
    });

    it('403 for a non-admin, 404 for another organization, 401 without a token', async () => {
        await expectError(fx.members[0].api.orgs.createOrganizationTeam(fx.org.id, { title: 'Mine' }), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Mine' }), 404);
        await expectUnauthorized(ctx, 'PUT', `/orgs/${fx.org.id}/teams`, { title: 'Mine' });
        const list = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id));
        assert.ok(!list.items.some((t) => t.title === 'Mine'));
    });
});

describe('GET /orgs/{id}/teams', () => {
    let fx;
    let teams;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2 });
        const api = fx.owner.api.orgs;
        teams = [];
        for (const title of ['Design', 'Docs', 'Support']) {
            teams.push(await expectOk(api.createOrganizationTeam(fx.org.id, { title }), 201));
        }
        await expectOk(api.addMemberToOrganizationTeamById(fx.org.id, teams[1].id, fx.members[0].userId, { role: 'owner' }), 204);
    });

    it('lists every team; count is the team count', async () => {
        const list = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id));
        assert.deepEqual(list.items.map((t) => t.id).sort(), teams.map((t) => t.id).sort());
        if (list.count !== undefined) assert.equal(list.count, 3);
        // A member with a role sees every team; they manage only the one they own.
        const seen = await expectOk(fx.members[0].api.orgs.listTeamsInOrganizationById(fx.org.id));
        const admin = Object.fromEntries(seen.items.map((t) => [t.id, t.permissions.admin]));
        assert.deepEqual(admin, { [teams[0].id]: false, [teams[1].id]: true, [teams[2].id]: false });
    });

    it('paginates with limit=1, each team exactly once', async () => {
        const { items } = await walk((q) => fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, q), 1);
        assert.equal(items.length, 3);
        assert.deepEqual(items.map((t) => t.id).sort(), teams.map((t) => t.id).sort());
    });

    it('filters by title and by owner', async () => {
        const docs = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, { title: 'doc' }));
        assert.deepEqual(docs.items.map((t) => t.id), [teams[1].id]);
        const owned = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, { owner: fx.members[0].userId }));
        assert.deepEqual(owned.items.map((t) => t.id), [teams[1].id]);
        const none = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, { owner: fx.members[1].userId }));
        assert.deepEqual(none.items, []);
    });

    it('400 for bad parameters, 404 for another organization, 401 without a token', async () => {
        await expectError(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, { limit: 1001 }), 400, /limit/);
        await expectError(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id, { page: 'forged' }), 400, /page/);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listTeamsInOrganizationById(fx.org.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/teams`);
    });
});

describe('GET/PATCH/DELETE /orgs/{id}/teams/{teamId}', () => {
    let fx;
    let team;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2 });
        team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Platform', members: [fx.members[0].userId] }), 201);
    });

    it('GET returns the team', async () => {
        const got = await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id));
        assert.equal(got.id, team.id);
        assert.equal(got.title, 'Platform');
        assert.equal(got.members, 1);
        assert.equal(got.createdAt, team.createdAt);
        const byMember = await expectOk(fx.members[1].api.orgs.getTeamInOrganizationById(fx.org.id, team.id));
        assert.deepEqual(byMember.permissions, { admin: false, view: true });
    });

    it('PATCH renames the team, and the name persists', async () => {
        const renamed = await expectOk(fx.owner.api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, { title: 'Platform Eng' }));
        assert.equal(renamed.title, 'Platform Eng');
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).title, 'Platform Eng');
    });

    it('PATCH with an invalid title is a 400 naming title; by a plain member a 403', async () => {
        await expectError(fx.owner.api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, { title: '' }), 400, /title/);
        await expectError(fx.owner.api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, {}), 400, /title/);
        await expectError(fx.owner.api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, { title: 'y'.repeat(65) }), 400, /title/);
        await expectError(fx.members[1].api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, { title: 'Hijacked' }), 403);
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).title, 'Platform Eng');
    });

    it('unknown team and another organization are 404s; no token is a 401', async () => {
        await expectError(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, 'no-such-team-0000'), 404);
        await expectError(fx.owner.api.orgs.updateTeamInOrganizationById(fx.org.id, 'no-such-team-0000', { title: 'Nope' }), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.getTeamInOrganizationById(fx.org.id, team.id), 404);
        await expectError(stranger.api.orgs.updateTeamInOrganizationById(fx.org.id, team.id, { title: 'Nope' }), 404);
        await expectError(stranger.api.orgs.removeTeamFromOrganizationById(fx.org.id, team.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/teams/${team.id}`);
        await expectUnauthorized(ctx, 'PATCH', `/orgs/${fx.org.id}/teams/${team.id}`, { title: 'Nope' });
        await expectUnauthorized(ctx, 'DELETE', `/orgs/${fx.org.id}/teams/${team.id}`);
    });

    it('DELETE by a plain member is a 403; by an admin a 204, after which the team is gone', async () => {
        await expectError(fx.members[0].api.orgs.removeTeamFromOrganizationById(fx.org.id, team.id), 403);
        await expectOk(fx.owner.api.orgs.removeTeamFromOrganizationById(fx.org.id, team.id), 204);
        await expectError(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id), 404);
        const list = await expectOk(fx.owner.api.orgs.listTeamsInOrganizationById(fx.org.id));
        assert.ok(!list.items.some((t) => t.id === team.id));
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, fx.members[0].userId));
        assert.equal(member.teams, 0, 'the member\'s team counter follows the deletion');
        const theirs = await expectOk(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, fx.members[0].userId));
        assert.deepEqual(theirs.items, []);
    });
});

describe('team members', () => {
    let fx;
    let team;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 4 });
        team = await expectOk(fx.owner.api.orgs.createOrganizationTeam(fx.org.id, { title: 'Crew' }), 201);
    });

    const memberIds = async () => (await expectOk(fx.owner.api.orgs.listTeamMembersInOrganizationById(fx.org.id, team.id)))
        .items.map((m) => m.organization.id).sort();

    it('PUT …/members adds (by id and by email), sets roles and removes, in one request (204)', async () => {
        const [a, b, c] = fx.members;
        await expectOk(fx.owner.api.orgs.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: [a.userId, b.email] }), 204);
        assert.deepEqual(await memberIds(), [a.userId, b.userId].sort());
        await expectOk(fx.owner.api.orgs.updateMembersInOrganizationTeam(fx.org.id, team.id, {
            remove: [a.userId], memberships: { [c.userId]: { role: 'owner' } },
        }), 204);
        const list = await expectOk(fx.owner.api.orgs.listTeamMembersInOrganizationById(fx.org.id, team.id));
        const roles = Object.fromEntries(list.items.map((m) => [m.organization.id, m.team.role]));
        assert.deepEqual(roles, { [b.userId]: 'member', [c.userId]: 'owner' });
        if (list.count !== undefined) assert.equal(list.count, 2);
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).members, 2);
    });

    it('GET …/members paginates with limit=1', async () => {
        const { items } = await walk((q) => fx.owner.api.orgs.listTeamMembersInOrganizationById(fx.org.id, team.id, q), 1);
        assert.deepEqual(items.map((m) => m.organization.id).sort(), await memberIds());
    });

    it('PUT …/members with invalid input is a 400 naming the field, and changes nothing', async () => {
        const before = await memberIds();
        const api = fx.owner.api.orgs;
        const [, , , d] = fx.members;
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: ['no-such-user-0000'] }), 400, /add/);
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: ['nobody@nowhere.example'] }), 400, /add/);
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, team.id, { memberships: { [d.userId]: { role: 'boss' } } }), 400, /memberships/);
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: [d.userId], remove: [d.userId] }), 400, /remove/);
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: d.userId }), 400, /add/);
        assert.deepEqual(await memberIds(), before);
    });

    it('PUT …/members/{userId} adds one member with a role; a team owner may then manage the team', async () => {
        const [, , c, d] = fx.members;
        await expectOk(fx.owner.api.orgs.addMemberToOrganizationTeamById(fx.org.id, team.id, d.userId, { role: 'member' }), 204);
        assert.ok((await memberIds()).includes(d.userId));
        // c is an owner (previous test): they can manage the team though not an org admin.
        const seen = await expectOk(c.api.orgs.getTeamInOrganizationById(fx.org.id, team.id));
        assert.equal(seen.permissions.admin, true);
        await expectOk(c.api.orgs.addMemberToOrganizationTeamById(fx.org.id, team.id, d.userId, { role: 'owner' }), 204);
        const list = await expectOk(fx.owner.api.orgs.listTeamMembersInOrganizationById(fx.org.id, team.id));
        assert.equal(list.items.find((m) => m.organization.id === d.userId).team.role, 'owner');
        const theirTeams = await expectOk(fx.owner.api.orgs.listTeamsForOrganizationMember(fx.org.id, d.userId));
        assert.deepEqual(theirTeams.items.map((i) => [i.team.id, i.member.role]), [[team.id, 'owner']]);
    });

    it('PUT …/members/{userId}: invalid role 400, non-member 404, plain member 403', async () => {
        const [a, b] = fx.members;
        await expectError(fx.owner.api.orgs.addMemberToOrganizationTeamById(fx.org.id, team.id, a.userId, { role: 'captain' }), 400, /role/);
        await expectError(fx.owner.api.orgs.addMemberToOrganizationTeamById(fx.org.id, team.id, 'no-such-user-0000', {}), 404);
        await expectError(b.api.orgs.addMemberToOrganizationTeamById(fx.org.id, team.id, a.userId, {}), 403);
        assert.ok(!(await memberIds()).includes(a.userId));
    });

    it('DELETE …/members/{userId} removes a member (204); a member may leave; a plain member cannot remove others (403)', async () => {
        const [, b, c, d] = fx.members;
        await expectError(b.api.orgs.deleteMemberFromOrganizationTeamById(fx.org.id, team.id, c.userId), 403);
        await expectOk(fx.owner.api.orgs.deleteMemberFromOrganizationTeamById(fx.org.id, team.id, d.userId), 204);
        await expectOk(b.api.orgs.deleteMemberFromOrganizationTeamById(fx.org.id, team.id, b.userId), 204);
        assert.deepEqual(await memberIds(), [c.userId]);
        assert.equal((await expectOk(fx.owner.api.orgs.getTeamInOrganizationById(fx.org.id, team.id))).members, 1);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, d.userId))).teams, 0);
    });

    it('unknown team and another organization are 404s; no token is a 401 — on every team-member operation', async () => {
        const [a] = fx.members;
        const api = fx.owner.api.orgs;
        await expectError(api.listTeamMembersInOrganizationById(fx.org.id, 'no-such-team-0000'), 404);
        await expectError(api.updateMembersInOrganizationTeam(fx.org.id, 'no-such-team-0000', { add: [a.userId] }), 404);
        await expectError(api.addMemberToOrganizationTeamById(fx.org.id, 'no-such-team-0000', a.userId, {}), 404);
        const stranger = await ctx.createUser();
        const theirs = stranger.api.orgs;
        await expectError(theirs.listTeamMembersInOrganizationById(fx.org.id, team.id), 404);
        await expectError(theirs.updateMembersInOrganizationTeam(fx.org.id, team.id, { add: [stranger.userId] }), 404);
        await expectError(theirs.addMemberToOrganizationTeamById(fx.org.id, team.id, stranger.userId, {}), 404);
        await expectError(theirs.deleteMemberFromOrganizationTeamById(fx.org.id, team.id, a.userId), 404);
        const base = `/orgs/${fx.org.id}/teams/${team.id}/members`;
        await expectUnauthorized(ctx, 'GET', base);
        await expectUnauthorized(ctx, 'PUT', base, { add: [a.userId] });
        await expectUnauthorized(ctx, 'PUT', `${base}/${a.userId}`, {});
        await expectUnauthorized(ctx, 'DELETE', `${base}/${a.userId}`);
    });
});
