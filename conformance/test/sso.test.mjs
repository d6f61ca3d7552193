// SAML SSO: GET/POST /orgs/{id}/saml, GET/PATCH/DELETE …/saml/{samlProviderId}, GET /orgs/{id}/sso,
// POST /orgs/{id}/members/{userId}/sso. The certificate is a self-signed test IdP's (lib/, valid to 2126).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();
const certificate = readFileSync(new URL('../lib/saml-idp-certificate.pem', import.meta.url), 'utf8');
const idp = { entityID: 'https://idp.example.com/realms/acme', ssoURL: 'https://idp.example.com/realms/acme/protocol/saml' };

describe('sso', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['edit'] });
    });

    it('creates a provider, pending until configured, reads, lists, updates and deletes it', async () => {
        const api = fx.owner.api.orgs;
        const team = await expectOk(api.createOrganizationTeam(fx.org.id, { title: 'Writers' }), 201);
        const pending = await expectOk(api.createOrganizationSamlProvider(fx.org.id, { label: 'Keycloak', entityID: idp.entityID }), 201);
        assert.equal(pending.status, 'pending');
        assert.match(pending.service.acsURL, new RegExp(`/saml/${pending.id}/acs$`));
        const active = await expectOk(api.updateOrganizationSamlProvider(fx.org.id, pending.id, {
            ssoURL: idp.ssoURL, certificate, defaultTeam: team.id, defaultRole: 'edit',
        }));
        assert.equal(active.status, 'active');
        assert.equal(active.defaultTeam.id, team.id);
        assert.deepEqual(await expectOk(api.getOrganizationSamlProviderById(fx.org.id, pending.id)), active);
        const listed = await walk((query) => api.listSamlProvidersInOrganizationById(fx.org.id, query), 1);
        assert.deepEqual(listed.items.map((p) => p.id), [active.id]);
        const logins = await expectOk(api.listSsoProviderLoginsInOrganization(fx.org.id));
        assert.deepEqual(logins.items, [{ id: active.id, label: 'Keycloak', startURL: active.service.startURL }]);
        await expectError(api.createOrganizationSamlProvider(fx.org.id, { label: 'Bad', certificate: 'nope' }), 400, /certificate/);
        await expectError(api.updateOrganizationSamlProvider(fx.org.id, active.id, { ssoURL: 'http://idp.example.com' }), 400, /ssoURL/);
        await expectOk(api.deleteOrganizationSamlProvider(fx.org.id, active.id), 205);
        await expectOk(api.deleteOrganizationSamlProvider(fx.org.id, active.id), 204);
        await expectError(api.getOrganizationSamlProviderById(fx.org.id, active.id), 404);
    });

    it('marks a member as an SSO member', async () => {
        const member = fx.members[0];
        const marked = await expectOk(fx.owner.api.orgs.setUserAsSsoMemberForOrganization(fx.org.id, member.userId));
        assert.equal(marked.sso, true);
    });

    it('only admins manage providers; strangers see nothing', async () => {
        const provider = await expectOk(fx.owner.api.orgs.createOrganizationSamlProvider(fx.org.id, { label: 'Okta' }), 201);
        const member = fx.members[0].api.orgs;
        await expectError(member.getOrganizationSamlProviderById(fx.org.id, provider.id), 403);
        await expectError(member.createOrganizationSamlProvider(fx.org.id, { label: 'Mine' }), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.listSamlProvidersInOrganizationById(fx.org.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/saml`);
        // The login choices are for anyone, logged in or not.
        const anonymous = await ctx.raw('GET', `/orgs/${fx.org.id}/sso`);
        assert.equal(anonymous.status, 200);
    });
});
