// Invites: POST /orgs/{id}/invites (by email), POST /orgs/{id}/invites/{inviteId} (join with a
// link), GET/POST /orgs/{id}/link-invites, GET/PATCH/DELETE …/link-invites/{inviteId}.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized, unique } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('POST /orgs/{id}/invites (by email)', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('invites existing users and new emails; they become members with the given roles', async () => {
        const existing = await ctx.createUser();
        const fresh = `${unique('new')}@example.com`;
        const third = await ctx.createUser();
        const result = await expectOk(fx.owner.api.orgs.inviteUsersToOrganization(fx.org.id, {
            emails: [existing.email, fresh, { email: third.email, role: 'edit' }], role: 'comment',
        }));
        assert.equal(result.invited, 3);
        assert.equal(result.users.length, 3);
        assert.ok(result.users.includes(existing.userId));
        assert.ok(result.users.includes(third.userId));
        const roles = {};
        for (const userId of result.users) {
            roles[userId] = (await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, userId))).role;
        }
        assert.equal(roles[existing.userId], 'comment');
        assert.equal(roles[third.userId], 'edit');
        const freshId = result.users.find((id) => id !== existing.userId && id !== third.userId);
        assert.equal(roles[freshId], 'comment');
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, freshId));
        if (member.user.email !== undefined) assert.equal(member.user.email, fresh);
        // The invited user now sees the organization.
        await expectOk(existing.api.orgs.getOrganizationById(fx.org.id));
    });

    it('inviting a member again invites nobody', async () => {
        const result = await expectOk(fx.owner.api.orgs.inviteUsersToOrganization(fx.org.id, { emails: [fx.members[0].email] }));
        assert.equal(result.invited, 0);
        assert.deepEqual(result.users, []);
    });

    it('invites as SSO members when sso is true', async () => {
        const user = await ctx.createUser();
        const result = await expectOk(fx.owner.api.orgs.inviteUsersToOrganization(fx.org.id, { emails: [user.email], sso: true }));
        assert.deepEqual(result.users, [user.userId]);
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, user.userId))).sso, true);
    });

    it('an invalid body is a 400 naming the field, and invites nobody', async () => {
        const api = fx.owner.api.orgs;
        const before = (await expectOk(api.listMembersInOrganizationById(fx.org.id))).items.length;
        await expectError(api.inviteUsersToOrganization(fx.org.id, {}), 400, /emails/);
        await expectError(api.inviteUsersToOrganization(fx.org.id, { emails: ['not-an-email'] }), 400, /emails/);
        await expectError(api.inviteUsersToOrganization(fx.org.id, { emails: [`${unique('ok')}@example.com`, 'also bad'] }), 400, /emails/);
        await expectError(api.inviteUsersToOrganization(fx.org.id, { emails: [{ email: `${unique('x')}@example.com` }] }), 400, /role/);
        await expectError(api.inviteUsersToOrganization(fx.org.id, { emails: [`${unique('x')}@example.com`], role: 'owner' }), 400, /role/);
        assert.equal((await expectOk(api.listMembersInOrganizationById(fx.org.id))).items.length, before);
    });

    it('a non-boolean sso is a 400 (no coercion), and invites nobody', async () => {
        const user = await ctx.createUser();
        await expectError(fx.owner.api.orgs.inviteUsersToOrganization(fx.org.id, { emails: [user.email], sso: 'yes' }), 400, /sso/);
        await expectError(user.api.orgs.getOrganizationById(fx.org.id), 404);
    });

    it('403 for a non-admin, 404 for another organization, 401 without a token', async () => {
        await expectError(fx.members[0].api.orgs.inviteUsersToOrganization(fx.org.id, { emails: [`${unique('x')}@example.com`] }), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.inviteUsersToOrganization(fx.org.id, { emails: [stranger.email] }), 404);
        await expectError(stranger.api.orgs.getOrganizationById(fx.org.id), 404);
        await expectUnauthorized(ctx, 'POST', `/orgs/${fx.org.id}/invites`, { emails: ['someone@example.com'] });
    });
});

describe('invite links', () => {
    let fx;
    let link;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1 });
    });

    it('POST /link-invites creates a link to the organization (201)', async () => {
        link = await expectOk(fx.owner.api.orgs.createOrganizationInvite(fx.org.id, { role: 'edit' }), 201);
        assert.equal(link.object, 'invite');
        assert.equal(link.role, 'edit');
        assert.equal(link.redundant, false);
        const guestLink = await expectOk(fx.owner.api.orgs.createOrganizationInvite(fx.org.id, { role: null }), 201);
        assert.equal(guestLink.role, null);
    });

    it('GET /link-invites lists the links, paginated', async () => {
        const list = await expectOk(fx.owner.api.orgs.listOrganizationInviteLinks(fx.org.id));
        assert.equal(list.items.length, 2);
        assert.ok(list.items.some((l) => l.id === link.id && l.role === 'edit'));
        if (list.count !== undefined) assert.equal(list.count, 2);
        const { items } = await walk((q) => fx.owner.api.orgs.listOrganizationInviteLinks(fx.org.id, q), 1);
        assert.deepEqual(items.map((l) => l.id).sort(), list.items.map((l) => l.id).sort());
    });

    it('GET /link-invites/{id} returns the link; PATCH changes its role', async () => {
        const got = await expectOk(fx.owner.api.orgs.getOrganizationInviteLink(fx.org.id, link.id));
        assert.deepEqual(got, link);
        const patched = await expectOk(fx.owner.api.orgs.updateOrganizationInviteById(fx.org.id, link.id, { role: 'comment' }));
        assert.equal(patched.role, 'comment');
        assert.equal((await expectOk(fx.owner.api.orgs.getOrganizationInviteLink(fx.org.id, link.id))).role, 'comment');
    });

    it('invalid bodies are 400s naming the field', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.createOrganizationInvite(fx.org.id, {}), 400, /role/);
        await expectError(api.createOrganizationInvite(fx.org.id, { role: 'owner' }), 400, /role/);
        await expectError(api.updateOrganizationInviteById(fx.org.id, link.id, { role: 'owner' }), 400, /role/);
        await expectError(api.updateOrganizationInviteById(fx.org.id, link.id, { level: 'read' }), 400, /level/);
        await expectError(api.updateOrganizationInviteById(fx.org.id, link.id, {}), 400, /role/);
        await expectError(api.listOrganizationInviteLinks(fx.org.id, { limit: 1001 }), 400, /limit/);
        await expectError(api.listOrganizationInviteLinks(fx.org.id, { page: 'forged' }), 400, /page/);
    });

    it('a non-admin gets 403 on every link operation', async () => {
        const api = fx.members[0].api.orgs;
        await expectError(api.listOrganizationInviteLinks(fx.org.id), 403);
        await expectError(api.createOrganizationInvite(fx.org.id, { role: 'admin' }), 403);
        await expectError(api.getOrganizationInviteLink(fx.org.id, link.id), 403);
        await expectError(api.updateOrganizationInviteById(fx.org.id, link.id, { role: 'admin' }), 403);
        await expectError(api.deleteOrganizationInviteById(fx.org.id, link.id), 403);
    });

    it('unknown links and other organizations are 404s; no token is a 401', async () => {
        const api = fx.owner.api.orgs;
        await expectError(api.getOrganizationInviteLink(fx.org.id, 'no-such-invite-0000'), 404);
        await expectError(api.updateOrganizationInviteById(fx.org.id, 'no-such-invite-0000', { role: 'read' }), 404);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listOrganizationInviteLinks(fx.org.id), 404);
        await expectError(stranger.api.orgs.createOrganizationInvite(fx.org.id, { role: 'admin' }), 404);
        await expectError(stranger.api.orgs.getOrganizationInviteLink(fx.org.id, link.id), 404);
        await expectError(stranger.api.orgs.updateOrganizationInviteById(fx.org.id, link.id, { role: 'admin' }), 404);
        await expectError(stranger.api.orgs.deleteOrganizationInviteById(fx.org.id, link.id), 404);
        const base = `/orgs/${fx.org.id}/link-invites`;
        await expectUnauthorized(ctx, 'GET', base);
        await expectUnauthorized(ctx, 'POST', base, { role: 'admin' });
        await expectUnauthorized(ctx, 'GET', `${base}/${link.id}`);
        await expectUnauthorized(ctx, 'PATCH', `${base}/${link.id}`, { role: 'admin' });
        await expectUnauthorized(ctx, 'DELETE', `${base}/${link.id}`);
    });

    it('POST /invites/{inviteId}: anyone with the link joins with its role (200)', async () => {
        const outsider = await ctx.createUser();
        await expectError(outsider.api.orgs.getOrganizationById(fx.org.id), 404);
        const body = await expectOk(outsider.api.orgs.joinOrganizationWithInvite(fx.org.id, link.id));
        assert.deepEqual(body, {});
        const member = await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, outsider.userId));
        assert.equal(member.role, 'comment');
        await expectOk(outsider.api.orgs.getOrganizationById(fx.org.id));
        // Joining again changes nothing.
        await expectOk(outsider.api.orgs.joinOrganizationWithInvite(fx.org.id, link.id));
        assert.equal((await expectOk(fx.owner.api.orgs.getMemberInOrganizationById(fx.org.id, outsider.userId))).role, 'comment');
    });

    it('POST /invites/{inviteId}: unknown link or organization 404, links switched off 400, no token 401', async () => {
        const outsider = await ctx.createUser();
        await expectError(outsider.api.orgs.joinOrganizationWithInvite(fx.org.id, 'no-such-invite-0000'), 404);
        await expectError(outsider.api.orgs.joinOrganizationWithInvite('no-such-org-0000', link.id), 404);
        await expectUnauthorized(ctx, 'POST', `/orgs/${fx.org.id}/invites/${link.id}`);
        await expectOk(fx.owner.api.orgs.updateOrganizationById(fx.org.id, { inviteLinks: false }));
        await expectError(outsider.api.orgs.joinOrganizationWithInvite(fx.org.id, link.id), 400);
        await expectError(fx.owner.api.orgs.createOrganizationInvite(fx.org.id, { role: 'read' }), 400);
        await expectError(outsider.api.orgs.getOrganizationById(fx.org.id), 404);
        await expectOk(fx.owner.api.orgs.updateOrganizationById(fx.org.id, { inviteLinks: true }));
    });

    it('DELETE /link-invites/{id} deletes the link (204); it no longer works', async () => {
        await expectOk(fx.owner.api.orgs.deleteOrganizationInviteById(fx.org.id, link.id), 204);
        await expectError(fx.owner.api.orgs.getOrganizationInviteLink(fx.org.id, link.id), 404);
        const latecomer = await ctx.createUser();
        await expectError(latecomer.api.orgs.joinOrganizationWithInvite(fx.org.id, link.id), 404);
        const list = await expectOk(fx.owner.api.orgs.listOrganizationInviteLinks(fx.org.id));
        assert.ok(!list.items.some((l) => l.id === link.id));
        if (list.count !== undefined) assert.equal(list.count, list.items.length);
    });
});
