// Integrations through the official client: publish (create, then a new version), read, list with
// filters and pages, development mode, install on an organization, a space and a site, the
// listings of installations, and unpublish; the 400/403/404 answers. Every response is validated
// against the official schema (Integration, IntegrationInstallation, IntegrationSpaceInstallation…,
// and each recorded event's payload against the official Event union). Then an installation token
// with the site, OpenAPI and Git Sync scopes, and events delivered signed to a published `endpoint`
// (Bindery's extension of the publish body) served by this test; the runner delivers them in process,
// and the events are polled a bounded number of times, each poll awaiting the server.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { useServer, expectOk, expectError, unique, hostForFunctions } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';
import { finished, gitRepos } from '../lib/git.mjs';

const ctx = useServer();
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]).toString('base64');

function body(orgId, extra = {}) {
    return {
        organization: orgId, title: 'Conformance', description: 'Counts views', script: 'export default {}',
        scopes: ['space:content:read', 'site:script:inject'], icon: PNG, previewImages: [PNG],
        categories: ['analytics'], secrets: { API_KEY: 'secret-value' },
        configurations: { account: { properties: { key: { type: 'string' } }, required: ['key'] },
            space: { properties: { on: { type: 'boolean', default: true } } } },
        contentSecurityPolicy: { 'script-src': "'self'" },
        ...extra,
    };
}

describe('Integrations', () => {
    let fx;
    let name;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        name = unique('conf-int').toLowerCase();
    });

    it('publish, read, list, development mode', async () => {
        const api = fx.owner.api.integrations;
        const first = await expectOk(api.publishIntegration(name, body(fx.org.id)));
        assert.equal(first.version, 1);
        assert.equal(first.owner.id, fx.org.id);
        assert.equal(first.secrets, undefined);
        assert.ok(first.urls.icon);
        const second = await expectOk(api.publishIntegration(name, body(fx.org.id, { title: 'Conformance 2' })));
        assert.equal(second.version, 2);
        const read = await expectOk(fx.members[0].api.integrations.getIntegrationByName(name));
        assert.deepEqual(read.permissions, { admin: false });
        const listed = await expectOk(api.listIntegrations({ owner: fx.org.id, category: 'analytics', limit: 1 }));
        assert.ok(listed.items.some((i) => i.name === name));
        await expectOk(fx.owner.api.orgs.listOrganizationIntegrations(fx.org.id, { search: name }));
        await expectOk(api.setIntegrationDevelopmentMode(name, { tunnelUrl: 'https://tunnel.example.com/x', all: false }), 204);
        await expectError(api.getIntegrationByName('no-such-integration-here'), 404);
        await expectError(api.publishIntegration(unique('bad').toLowerCase(), body(fx.org.id, { scopes: ['nope'] })), 400, /scopes/);
        await expectError(fx.members[0].api.integrations.publishIntegration(name, body(fx.org.id)), 403);
        await expectError(api.publishIntegration(unique('nohost').toLowerCase(), body('nowhere.example')), 404);
    });

    it('install on the organization, a space and a site, list, uninstall, unpublish', async () => {
        const api = fx.owner.api.integrations;
        const installation = await expectOk(api.installIntegration(name, { organization: fx.org.id }), 201);
        assert.equal(installation.status, 'pending');
        const active = await expectOk(api.updateIntegrationInstallation(name, installation.id, { configuration: { key: 'k' }, externalIds: ['ext-1'] }));
        assert.equal(active.status, 'active');
        await expectOk(api.getIntegrationInstallationById(name, installation.id));
        const byExternal = await expectOk(api.listIntegrationInstallations(name, { externalId: 'ext-1' }));
        assert.deepEqual(byExternal.items.map((i) => i.id), [installation.id]);
        const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Integrated' }), 201);
        const onSpace = await expectOk(api.installIntegrationOnSpace(name, installation.id, { space: space.id }), 201);
        assert.equal(onSpace.space, space.id);
        assert.deepEqual(onSpace.configuration, { on: true });
        const extended = await expectOk(api.listIntegrationInstallationSpaces(name, installation.id, { extended: true }));
        assert.equal(extended.items[0].space.id, space.id);
        await expectOk(api.updateIntegrationSpaceInstallation(name, installation.id, space.id, { externalIds: ['s'] }));
        await expectOk(api.listIntegrationSpaceInstallations(name, { externalId: 's' }));
        // An installation token reads the selected space's content (space:content:read) and nothing else.
        const { token } = await expectOk(api.createIntegrationInstallationToken(name, installation.id));
        const asInstallation = ctx.client(token);
        await expectOk(asInstallation.spaces.getSpaceById(space.id));
        await expectOk(asInstallation.spaces.getCurrentRevision(space.id));
        await expectError(asInstallation.orgs.getOrganizationById(fx.org.id), 403);
        const inSpace = await expectOk(fx.owner.api.spaces.listSpaceIntegrations(space.id));
        assert.deepEqual(inSpace.items.map((i) => i.name), [name]);
        const site = await expectOk(fx.owner.api.orgs.createSite(fx.org.id, { title: 'Integrated site' }), 201);
        await expectOk(api.installIntegrationOnSite(name, installation.id, { siteId: site.id }), 201);
        await expectOk(api.getIntegrationSiteInstallation(name, installation.id, site.id, { extended: true }));
        await expectOk(api.listIntegrationSiteInstallations(name));
        const onSite = await expectOk(fx.owner.api.orgs.listSiteIntegrations(fx.org.id, site.id));
        assert.deepEqual(onSite.items.map((i) => i.name), [name]);
        const orgInstalls = await expectOk(fx.owner.api.orgs.listOrganizationInstallations(fx.org.id));
        assert.ok(orgInstalls.items.some((i) => i.installation.id === installation.id));
        const refreshed = await expectOk(api.getIntegrationInstallationById(name, installation.id));
        assert.equal(refreshed.spaces, 1);
        await expectError(api.installIntegration(name, { organization: fx.org.id }), 409);
        await expectError(fx.members[0].api.integrations.updateIntegrationInstallation(name, installation.id, { externalIds: [] }), 403);
        const recorded = await expectOk(api.listIntegrationEvents(name));
        assert.ok(recorded.items.some((e) => e.payload.type === 'space_installation_setup'));
        const traced = await expectOk(api.getIntegrationEvent(name, recorded.items[0].id));
        assert.equal(traced.event.id, recorded.items[0].id);
        await expectError(api.getIntegrationEvent(name, 'no-such-event'), 404);
        await expectOk(api.uninstallIntegrationFromSpace(name, installation.id, space.id), 204);
        await expectOk(api.uninstallIntegrationFromSite(name, installation.id, site.id), 204);
        await expectOk(api.uninstallIntegration(name, installation.id), 204);
        await expectError(api.getIntegrationInstallationById(name, installation.id), 404);
        await expectOk(api.disableIntegrationDevelopmentMode(name), 205);
        await expectOk(api.unpublishIntegration(name), 204);
        await expectOk(api.unpublishIntegration(name), 204);
        await expectError(api.installIntegration(name, { organization: fx.org.id }), 404);
    });

    it('a token with site, OpenAPI and Git Sync scopes; Git Sync events delivered signed to the endpoint', async () => {
        const SECRET = 'whsec-conformance-endpoint';
        const received = [];
        const receiver = http.createServer((req, res) => {
            const chunks = [];
            req.on('data', (chunk) => chunks.push(chunk));
            req.on('end', () => {
                const body = Buffer.concat(chunks);
                const stamp = req.headers['x-bindery-timestamp'] ?? '';
                const expected = Buffer.from(`v1=${createHmac('sha256', SECRET).update(`${stamp}.`).update(body).digest('hex')}`);
                const given = Buffer.from(String(req.headers['x-bindery-signature'] ?? ''));
                const fresh = Math.abs(Date.now() / 1000 - Number(stamp)) <= 300;
                const signed = given.length === expected.length && timingSafeEqual(given, expected);
                if (fresh && signed) received.push(JSON.parse(body.toString('utf8')));
                res.writeHead(fresh && signed ? 200 : 401).end();
            });
        });
        await new Promise((resolve) => receiver.listen(0, hostForFunctions(), resolve));
        try {
            const api = fx.owner.api.integrations;
            const scoped = unique('conf-scopes').toLowerCase();
            const publish = (extra) => api.publishIntegration(scoped, {
                organization: fx.org.id, title: 'Scoped', description: 'Syncs', script: 'export default {}',
                scopes: ['site:metadata:read', 'openapi:read', 'openapi:write', 'space:git:sync'],
                secrets: { SIGNING_SECRET: SECRET }, ...extra,
            });
            await expectError(publish({ endpoint: 'file:///etc/passwd' }), 400, /endpoint/);
            await expectOk(publish({ endpoint: `http://${hostForFunctions()}:${receiver.address().port}/events` }));
            const installation = await expectOk(api.installIntegration(scoped, { organization: fx.org.id }), 201);
            const space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Synced by a token' }), 201);
            const site = await expectOk(fx.owner.api.orgs.createSite(fx.org.id, { title: 'Scoped site' }), 201);
            const other = await expectOk(fx.owner.api.orgs.createSite(fx.org.id, { title: 'Not selected' }), 201);
            await expectOk(api.installIntegrationOnSpace(scoped, installation.id, { space: space.id }), 201);
            await expectOk(api.installIntegrationOnSite(scoped, installation.id, { siteId: site.id }), 201);
            const { token } = await expectOk(api.createIntegrationInstallationToken(scoped, installation.id));
            const asInstallation = ctx.client(token);
            assert.equal((await expectOk(asInstallation.orgs.getSiteById(fx.org.id, site.id))).id, site.id);
            await expectOk(asInstallation.orgs.listSiteSpaces(fx.org.id, site.id));
            await expectError(asInstallation.orgs.getSiteById(fx.org.id, other.id), 404);
            await expectError(asInstallation.orgs.updateSiteById(fx.org.id, site.id, { title: 'Taken' }), 403);
            const spec = '{"openapi": "3.0.0", "info": {"title": "Pets", "version": "1"}, "paths": {}}';
            await expectOk(asInstallation.orgs.createOpenApiSpec(fx.org.id, { slug: 'by-token', source: { text: spec } }), 201);
            const specs = await expectOk(asInstallation.orgs.listOpenApiSpecs(fx.org.id));
            assert.ok(specs.items.some((s) => s.slug === 'by-token'));
            await expectError(asInstallation.spaces.listPages(space.id), 403);
            const dir = await mkdtemp(path.join(os.tmpdir(), 'bindery-int-git-'));
            const url = await gitRepos('bare', path.join(dir, 'source.git'), { 'README.md': '# Hello\n' });
            const run = await finished(ctx, await asInstallation.spaces.importGitRepository(space.id, { url, ref: 'refs/heads/main' }), token);
            assert.equal(run.status, 'succeeded', run.error);
            const wanted = ['space_gitsync_started', 'space_gitsync_completed', 'space_content_updated'];
            let sent = [];
            for (let i = 0; i < 100 && wanted.some((type) => !sent.some((e) => e.payload.type === type && e.status === 'success')); i += 1) {
                sent = (await expectOk(api.listIntegrationEvents(scoped, { limit: 100 }))).items;
            }
            for (const type of wanted) {
                const event = sent.find((e) => e.payload.type === type);
                assert.equal(event?.status, 'success', type);
                assert.equal(event.payload.spaceId, space.id);
                assert.equal(event.payload.revisionId, run.revision);
                assert.deepEqual(received.find((e) => e.type === type), event.payload);
            }
            const completed = sent.find((e) => e.payload.type === 'space_gitsync_completed').payload;
            assert.equal(completed.state, 'success');
            assert.equal(completed.commitId, run.commit);
            await expectOk(api.unpublishIntegration(scoped), 204);
        } finally {
            receiver.close();
        }
    });
});
