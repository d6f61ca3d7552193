// Organizations: list (paginated), create (Bindery's POST /orgs extension), get, update, ping,
// agent instructions, email-domain discovery and joining by verified email domain.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, unique } from '../lib/context.mjs';
import { createOrg as create, paragraph } from '../lib/fixtures.mjs';

const ctx = useServer();
const createOrg = (token, body) => create(ctx, token, body);

describe('POST /orgs (Bindery extension)', () => {
    it('creates an organization whose creator is its admin', async () => {
        const ada = await ctx.createUser();
        const org = await createOrg(ada.token, { title: 'Acme Docs', type: 'community', useCase: 'openSourceDocs', communityType: 'openSource', emailDomains: ['Acme.Example'] });
        assert.equal(org.title, 'Acme Docs');
        assert.equal(org.type, 'community');
        assert.equal(org.useCase, 'openSourceDocs');
        assert.equal(org.communityType, 'openSource');
        assert.deepEqual(org.emailDomains, ['acme.example']);
        assert.equal(org.permissions.admin, true);
        assert.equal(org.urls.location, `${ctx.url}/orgs/${org.id}`);
    });

    it('refuses an invalid body with 400 naming the field', async () => {
        const ada = await ctx.createUser();
        for (const [body, field] of [[{ title: 'A' }, 'title'], [{}, 'title'], [{ title: 'Acme', type: 'company' }, 'type'], [{ title: 'Acme', emailDomains: ['not a domain'] }, 'emailDomains']]) {
            const res = await ctx.raw('POST', '/orgs', { token: ada.token, body });
            assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.status}`);
            assert.match(res.body.error.message, new RegExp(field), `message should name ${field}: ${res.body.error.message}`);
        }
    });
});

describe('GET /orgs', () => {
    let user;
    let created;
    before(async () => {
        user = await ctx.createUser();
        created = [await createOrg(user.token, { title: 'First Org' }), await createOrg(user.token, { title: 'Second Org' })];
    });

    it('lists exactly the caller\'s organizations', async () => {
        const list = await expectOk(user.api.orgs.listOrganizationsForAuthenticatedUser());
        assert.deepEqual(list.items.map((o) => o.id).sort(), created.map((o) => o.id).sort());
        assert.equal(list.next, undefined);
        if (list.count !== undefined) assert.equal(list.count, 2);
        for (const org of list.items) assert.equal(org.permissions.admin, true);
    });

    it('paginates with limit=1: one organization per page, each exactly once', async () => {
        const pages = [];
        let page;
        do {
            const data = await expectOk(user.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page }));
            pages.push(data);
            page = data.next?.page;
            assert.ok(pages.length <= 3, 'more pages than organizations (+1)');
        } while (page);
        const ids = pages.flatMap((p) => p.items.map((o) => o.id));
        for (const p of pages) assert.ok(p.items.length <= 1, `page with ${p.items.length} items for limit=1`);
        assert.deepEqual([...ids].sort(), created.map((o) => o.id).sort(), 'pages must cover both organizations, without repeats');
        assert.ok(pages[0].next, 'the first page of two organizations with limit=1 must have next');
        for (const p of pages.slice(0, -1)) assert.equal(p.items.length, 1, 'only the last page may be short');
    });

    it('refuses a forged page cursor and an out-of-range limit with 400', async () => {
        await expectError(user.api.orgs.listOrganizationsForAuthenticatedUser({ page: 'forged-cursor' }), 400, /page/);
        await expectError(user.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1001 }), 400, /limit/);
        await expectError(user.api.orgs.listOrganizationsForAuthenticatedUser({ limit: -1 }), 400, /limit/);
    });

    it('a page cursor from another user\'s listing is refused with 400', async () => {
        const first = await expectOk(user.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 }));
        const other = await ctx.createUser();
        await expectError(other.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page: first.next.page }), 400, /page/);
    });
});

describe('GET/PATCH /orgs/{organizationId}', () => {
    let owner;
    let org;
    before(async () => {
        owner = await ctx.createUser();
        org = await createOrg(owner.token, { title: 'Patch Me', useCase: 'productDocs' });
    });

    it('GET returns the organization', async () => {
        const got = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        assert.equal(got.id, org.id);
        assert.equal(got.title, 'Patch Me');
        assert.equal(got.useCase, 'productDocs');
        assert.equal(got.createdAt, org.createdAt);
    });

    it('PATCH updates title, emailDomains and defaultRole, and the change persists', async () => {
        const domain = `${unique('d')}.example`;
        const patched = await expectOk(owner.api.orgs.updateOrganizationById(org.id, { title: 'Patched Title', emailDomains: [domain], defaultRole: 'edit' }));
        assert.equal(patched.title, 'Patched Title');
        assert.deepEqual(patched.emailDomains, [domain]);
        assert.equal(patched.defaultRole, 'edit');
        const got = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        assert.equal(got.title, 'Patched Title');
        assert.deepEqual(got.emailDomains, [domain]);
        assert.equal(got.defaultRole, 'edit');
    });

    it('PATCH sets defaultRole back to null (guest) and leaves unsent fields alone', async () => {
        const patched = await expectOk(owner.api.orgs.updateOrganizationById(org.id, { defaultRole: null }));
        assert.equal(patched.defaultRole, null);
        assert.equal(patched.title, 'Patched Title');
    });

    it('PATCH updates hostname, the booleans and mergeRules', async () => {
        const hostname = unique('h');
        const patched = await expectOk(owner.api.orgs.updateOrganizationById(org.id, { hostname, sso: true, ai: false, inviteLinks: false, mergeRules: { type: 'none' } }));
        assert.equal(patched.hostname, hostname);
        assert.equal(patched.sso, true);
        assert.equal(patched.ai, false);
        assert.equal(patched.inviteLinks, false);
        assert.deepEqual(patched.mergeRules, { type: 'none' });
    });

    it('an invalid PATCH is a 400 naming the field, and changes nothing', async () => {
        const before = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        const cases = [
            [{ title: 'A' }, /title/],
            [{ title: 'x'.repeat(256) }, /title/],
            [{ defaultRole: 'owner' }, /defaultRole/],
            [{ emailDomains: 'example.com' }, /emailDomains/],
            [{ hostname: 'ab' }, /hostname/],
            [{ title: null }, /title/],
            [{ mergeRules: { type: 'sometimes' } }, /mergeRules/],
        ];
        for (const [body, field] of cases) {
            await expectError(owner.api.orgs.updateOrganizationById(org.id, body), 400, field, `PATCH ${JSON.stringify(body)}`);
        }
        // Unknown fields are ignored (the spec's bodies are open: docs/decisions.md), so this changes nothing.
        await expectOk(owner.api.orgs.updateOrganizationById(org.id, { titel: 'typo' }));
        const after = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        assert.deepEqual(after, before);
    });

    it('PATCH refuses non-boolean values for boolean fields (400, no coercion)', async () => {
        const before = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        for (const body of [{ sso: 'no' }, { ai: 1 }, { inviteLinks: 'true' }]) {
            await expectError(owner.api.orgs.updateOrganizationById(org.id, body), 400, new RegExp(Object.keys(body)[0]), `PATCH ${JSON.stringify(body)}`);
        }
        assert.deepEqual(await expectOk(owner.api.orgs.getOrganizationById(org.id)), before);
    });

    it('PATCH with defaultContent pointing to a site that does not exist is a 400', async () => {
        await expectError(owner.api.orgs.updateOrganizationById(org.id, { defaultContent: { type: 'site', site: 'no-such-site' } }), 400, /defaultContent/);
    });

    it('another user\'s organization is a 404, for reads and writes', async () => {
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.getOrganizationById(org.id), 404);
        await expectError(stranger.api.orgs.updateOrganizationById(org.id, { title: 'Hijacked' }), 404);
        await expectError(stranger.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 404);
        await expectError(stranger.api.orgs.getOrganizationAgentInstructions(org.id), 404);
        await expectError(stranger.api.orgs.updateOrganizationAgentInstructions(org.id, { instructions: paragraph('x') }), 404);
        const got = await expectOk(owner.api.orgs.getOrganizationById(org.id));
        assert.notEqual(got.title, 'Hijacked');
    });

    it('an organization that does not exist is a 404', async () => {
        await expectError(owner.api.orgs.getOrganizationById('no-such-org-0000'), 404);
        await expectError(owner.api.orgs.updateOrganizationById('no-such-org-0000', { title: 'Nope' }), 404);
    });
});

describe('ping and agent instructions', () => {
    let owner;
    let org;
    before(async () => {
        owner = await ctx.createUser();
        org = await createOrg(owner.token, { title: 'Agents' });
    });

    it('POST /orgs/{id}/ping answers 200', async () => {
        const body = await expectOk(owner.api.orgs.updateOrganizationMemberLastSeenAt(org.id));
        assert.equal(typeof body, 'object');
    });

    it('GET agent-instructions before any PUT returns an empty document', async () => {
        const got = await expectOk(owner.api.orgs.getOrganizationAgentInstructions(org.id));
        assert.equal(got.object, 'agent-instructions');
        assert.equal(got.instructions.object, 'document');
        assert.deepEqual(got.instructions.nodes, []);
    });

    it('PUT agent-instructions stores the document; GET returns it with who and when', async () => {
        const doc = paragraph('Answer in British English.');
        const put = await expectOk(owner.api.orgs.updateOrganizationAgentInstructions(org.id, { instructions: doc }));
        assert.deepEqual(put.instructions.nodes, doc.nodes);
        assert.equal(put.updatedBy, owner.userId);
        const got = await expectOk(owner.api.orgs.getOrganizationAgentInstructions(org.id));
        assert.deepEqual(got.instructions, put.instructions);
        assert.equal(got.updatedAt, put.updatedAt);
        assert.ok(Date.parse(got.updatedAt) >= Date.parse(org.createdAt));
    });

    it('PUT agent-instructions without a document is a 400', async () => {
        await expectError(owner.api.orgs.updateOrganizationAgentInstructions(org.id, {}), 400, /instructions/);
        await expectError(owner.api.orgs.updateOrganizationAgentInstructions(org.id, { instructions: { object: 'paragraph' } }), 400, /instructions/);
    });
});

describe('joining by verified email domain', () => {
    let owner;
    let org;
    let domain;
    before(async () => {
        owner = await ctx.createUser();
        domain = `${unique('join')}.example`;
        org = await createOrg(owner.token, { title: 'Joinable', emailDomains: [domain] });
    });

    it('GET /email-domains/{domain}/orgs lists the organization to a verified user of that domain', async () => {
        const carol = await ctx.createUser({ email: `carol@${domain}` });
        const found = await expectOk(carol.api.emailDomains.getOrganizationsForEmailDomain(domain));
        assert.deepEqual(found.organizations.map((o) => o.id), [org.id]);
    });

    it('GET /email-domains/{domain}/orgs lists nothing to an unverified user or a user of another domain', async () => {
        const unverified = await ctx.createUser({ email: `dan@${domain}`, verified: false });
        assert.deepEqual((await expectOk(unverified.api.emailDomains.getOrganizationsForEmailDomain(domain))).organizations, []);
        const outsider = await ctx.createUser({ email: `erin@${unique('other')}.example` });
        assert.deepEqual((await expectOk(outsider.api.emailDomains.getOrganizationsForEmailDomain(domain))).organizations, []);
    });

    it('POST /orgs/{id}/join: a verified user of an allowed domain joins (204) with the default role', async () => {
        await expectOk(owner.api.orgs.updateOrganizationById(org.id, { defaultRole: 'comment' }));
        const frank = await ctx.createUser({ email: `frank@${domain}` });
        await expectError(frank.api.orgs.getOrganizationById(org.id), 404);
        await expectOk(frank.api.orgs.joinOrganization(org.id), 204);
        const seen = await expectOk(frank.api.orgs.getOrganizationById(org.id));
        assert.equal(seen.permissions.admin, false);
        assert.equal(seen.permissions.view, true);
        const mine = await expectOk(frank.api.orgs.listOrganizationsForAuthenticatedUser());
        assert.deepEqual(mine.items.map((o) => o.id), [org.id]);
        // Joining again changes nothing.
        await expectOk(frank.api.orgs.joinOrganization(org.id), 204);
        // A member without the admin role cannot change the organization.
        await expectError(frank.api.orgs.updateOrganizationById(org.id, { title: 'Mine now' }), 403);
        await expectError(frank.api.orgs.updateOrganizationAgentInstructions(org.id, { instructions: paragraph('x') }), 403);
    });

    it('POST /orgs/{id}/join refuses an unverified email and another domain with 400', async () => {
        const unverified = await ctx.createUser({ email: `gina@${domain}`, verified: false });
        await expectError(unverified.api.orgs.joinOrganization(org.id), 400);
        const outsider = await ctx.createUser({ email: `hal@${unique('other')}.example` });
        await expectError(outsider.api.orgs.joinOrganization(org.id), 400);
        await expectError(outsider.api.orgs.getOrganizationById(org.id), 404);
    });

    it('POST /orgs/{id}/join for an organization that does not exist is a 404', async () => {
        const ivan = await ctx.createUser({ email: `ivan@${domain}` });
        await expectError(ivan.api.orgs.joinOrganization('no-such-org-0000'), 404);
    });
});
