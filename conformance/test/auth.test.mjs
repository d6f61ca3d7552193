// Authentication: every endpoint answers 401 with an error body to a missing, malformed or
// unknown token. Raw fetch, since the client always sends its token.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, refusedStatus } from '../lib/context.mjs';

const ctx = useServer();

const UNKNOWN = 'gb_api_this_token_was_never_issued_0123456789abcdef';
const BAD_HEADERS = [
    ['no Authorization header', {}],
    ['an unknown bearer token', { Authorization: `Bearer ${UNKNOWN}` }],
    ['an empty bearer token', { Authorization: 'Bearer ' }],
    ['a non-bearer scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
];

describe('authentication', () => {
    let orgId;
    let userId;
    before(async () => {
        const orgs = await expectOk(ctx.api.orgs.listOrganizationsForAuthenticatedUser());
        orgId = orgs.items[0].id;
        userId = (await expectOk(ctx.api.user.getAuthenticatedUser())).id;
    });

    const endpoints = () => [
        ['GET', '/user'],
        ['GET', `/users/${userId}`],
        ['GET', '/orgs'],
        ['POST', '/orgs', { title: 'Never created' }],
        ['GET', `/orgs/${orgId}`],
        ['PATCH', `/orgs/${orgId}`, { title: 'Never renamed' }],
        ['POST', `/orgs/${orgId}/join`],
        ['POST', `/orgs/${orgId}/ping`],
        ['GET', `/orgs/${orgId}/agent-instructions`],
        ['PUT', `/orgs/${orgId}/agent-instructions`, { instructions: { object: 'document', data: {}, nodes: [] } }],
        ['GET', '/email-domains/example.com/orgs'],
        ['GET', '/integrations'],
        ['POST', '/integrations/never-published', { organization: orgId, title: 'Never', description: 'x', script: 'x' }],
        ['GET', `/orgs/${orgId}/integrations`],
        ['GET', `/orgs/${orgId}/installations`],
        // An organization that does not exist: still 401, not 404 (no probing without a token).
        ['GET', '/orgs/no-such-org-0000'],
    ];

    for (const [label, headers] of BAD_HEADERS) {
        it(`${label} → 401 with an error body`, async () => {
            for (const [method, path, body] of endpoints()) {
                const res = await ctx.raw(method, path, { headers, body });
                assert.equal(res.status, refusedStatus(headers), `${method} ${path} with ${label}: got ${res.status} ${JSON.stringify(res.body)}`);
            }
        });
    }

    it('the organization is unchanged after the refused writes', async () => {
        const org = await expectOk(ctx.api.orgs.getOrganizationById(orgId));
        assert.notEqual(org.title, 'Never renamed');
        const titles = (await expectOk(ctx.api.orgs.listOrganizationsForAuthenticatedUser())).items.map((o) => o.title);
        assert.ok(!titles.includes('Never created'));
    });

    it('a valid token is accepted (the 401s above are about the token)', async () => {
        const res = await ctx.raw('GET', '/user', { token: ctx.token });
        assert.equal(res.status, 200);
    });
});
