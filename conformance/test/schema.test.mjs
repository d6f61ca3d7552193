// The validator itself: it must reject what the spec rejects, or every other test proves nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectResponse, operationFor, translate } from '../lib/schema.mjs';

const org = {
    object: 'organization', id: 'o1', title: 'Acme', createdAt: '2025-01-01T00:00:00.000Z',
    emailDomains: [], type: 'business', defaultRole: null, sso: false, ai: true, inviteLinks: true,
    plan: 'free_2024', mergeRules: { type: 'none' },
    urls: { location: 'http://127.0.0.1:3000/v1/orgs/o1', app: 'http://127.0.0.1:3000/app/o/o1' },
    trial: { status: 'notapplicable', count: 0 },
    permissions: {
        view: true, admin: true, ownTeam: true, createContent: true, createOpenAPISpec: true,
        ingestConversations: true, viewBilling: true, listMembers: true, listTeams: true,
        listIntegrations: true, listInstallations: true, installIntegration: true,
    },
};

describe('schema validator', () => {
    it('accepts a well-formed organization, with defaultRole null (nullable enum)', () => {
        expectResponse('getOrganizationById', 200, org);
        expectResponse('getOrganizationById', 200, { ...org, defaultRole: 'read' });
    });

    it('rejects a missing required field, a wrong enum value, a bad format and a wrong type', () => {
        const { id, ...noId } = org;
        assert.throws(() => expectResponse('getOrganizationById', 200, noId), /must have required property 'id'/);
        assert.throws(() => expectResponse('getOrganizationById', 200, { ...org, defaultRole: 'owner' }), /defaultRole/);
        assert.throws(() => expectResponse('getOrganizationById', 200, { ...org, createdAt: 'yesterday' }), /createdAt must match format "date-time"/);
        assert.throws(() => expectResponse('getOrganizationById', 200, { ...org, sso: 'no' }), /\/sso must be boolean/);
        assert.throws(() => expectResponse('getOrganizationById', 200, { ...org, urls: { ...org.urls, app: 'not a uri' } }), /urls\/app must match format "uri"/);
    });

    it('checks list envelopes', () => {
        expectResponse('listOrganizationsForAuthenticatedUser', 200, { items: [org], next: { page: 'p' }, count: 1 });
        assert.throws(() => expectResponse('listOrganizationsForAuthenticatedUser', 200, { items: [org], next: {} }), /next must have required property 'page'/);
        assert.throws(() => expectResponse('listOrganizationsForAuthenticatedUser', 200, { items: [{ ...org, object: 'space' }], count: 1 }), /items\/0\/object/);
        // Every listing carries its count (API.md), though the spec makes it optional.
        assert.throws(() => expectResponse('listOrganizationsForAuthenticatedUser', 200, { items: [org] }), /without its count/);
        assert.throws(() => expectResponse('listOrganizationsForAuthenticatedUser', 200, { items: [org, org], count: 1 }), /less than/);
    });

    it('checks declared error schemas (404 must carry code 404) and undeclared error shapes', () => {
        expectResponse('getOrganizationById', 404, { error: { code: 404, message: 'No such organization' } });
        assert.throws(() => expectResponse('getOrganizationById', 404, { error: { code: 400, message: 'x' } }), /code/);
        assert.throws(() => expectResponse('getOrganizationById', 404, { message: 'x' }), /required property 'error'/);
        expectResponse('getOrganizationById', 401, { error: { code: 401, message: 'Unauthorized' } });
        assert.throws(() => expectResponse('getOrganizationById', 401, { error: { code: 403, message: 'x' } }), /differs from HTTP status/);
        assert.throws(() => expectResponse('getOrganizationById', 401, { error: { code: 401 } }), /message/);
        assert.throws(() => expectResponse('getOrganizationById', 401, undefined), /must be object/);
    });

    it('rejects undeclared success statuses and bodies on bodiless responses', () => {
        assert.throws(() => expectResponse('getOrganizationById', 201, org), /not a declared response/);
        expectResponse('joinOrganization', 204, undefined);
        assert.throws(() => expectResponse('joinOrganization', 204, {}), /declares no body/);
    });

    it('maps requests to operations, literal segments first', () => {
        assert.equal(operationFor('GET', '/orgs').operationId, 'listOrganizationsForAuthenticatedUser');
        assert.equal(operationFor('POST', '/orgs').operationId, 'bindery:createOrganization');
        assert.equal(operationFor('GET', '/orgs/o1/members/u1').operationId, 'getMemberInOrganizationById');
        assert.equal(operationFor('GET', '/orgs/o1/integrations/installations-status').operationId, 'listOrganizationIntegrationsStatus');
        assert.equal(operationFor('DELETE', '/orgs'), undefined);
    });

    it('translates nullable for typed, enum and untyped schemas', () => {
        assert.deepEqual(translate({ type: 'string', nullable: true }), { type: ['string', 'null'] });
        assert.deepEqual(translate({ type: 'string', nullable: true, enum: ['a'] }), { type: ['string', 'null'], enum: ['a', null] });
        assert.deepEqual(translate({ $ref: '#/components/schemas/User', nullable: true }).anyOf[1], { type: 'null' });
    });
});
