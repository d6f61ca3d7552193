// OpenAPI specifications through the official client: create from text (openapi-spec-validator's
// Petstore sample, tests/data/openapi), processed by the local runner's in-process worker, then the
// versions and their content; PUT, PATCH, DELETE and the 400/404 answers. Every response is validated
// against the official schema. Processing is awaited by polling the spec a bounded number of times,
// each poll awaiting the server's answer: no fixed sleeps.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';
import { REPO_ROOT } from '../lib/server.mjs';

const ctx = useServer();
const POLLS = 100;
const petstore = (version) => readFileSync(path.join(REPO_ROOT, 'tests', 'data', 'openapi', version, 'petstore.yaml'), 'utf8');

async function processed(api, orgId, slug) {
    for (let i = 0; i < POLLS; i += 1) {
        const spec = await expectOk(api.getOpenApiSpecBySlug(orgId, slug));
        if (spec.processingState === 'complete') return spec;
    }
    assert.fail(`${slug} was not processed after ${POLLS} polls`);
}

describe('OpenAPI specifications', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
    });

    it('create, process, versions and their content', async () => {
        const api = fx.owner.api.orgs;
        const created = await expectOk(api.createOpenApiSpec(fx.org.id, { slug: 'petstore', source: { text: petstore('v3.0') } }), 201);
        assert.equal(created.slug, 'petstore');
        assert.equal(created.processingState, 'pending');
        await expectError(api.createOpenApiSpec(fx.org.id, { slug: 'petstore', source: { text: petstore('v3.0') } }), 400, /slug/);
        await expectError(api.createOpenApiSpec(fx.org.id, { slug: 'Bad Slug', source: { text: 'x' } }), 400, /slug/);
        const spec = await processed(api, fx.org.id, 'petstore');
        assert.ok(spec.lastVersion);
        assert.equal(spec.lastProcessErrorCode, undefined);
        const listed = await expectOk(api.listOpenApiSpecs(fx.org.id));
        assert.deepEqual(listed.items.map((s) => s.slug), ['petstore']);
        assert.equal(listed.count, 1);
        const versions = await expectOk(api.listOpenApiSpecVersions(fx.org.id, 'petstore'));
        assert.equal(versions.count, 1);
        const latest = await expectOk(api.getLatestOpenApiSpecVersion(fx.org.id, 'petstore'));
        assert.equal(latest.id, spec.lastVersion);
        const byId = await expectOk(api.getOpenApiSpecVersionById(fx.org.id, 'petstore', latest.id));
        assert.equal(byId.id, latest.id);
        const content = await expectOk(api.getLatestOpenApiSpecVersionContent(fx.org.id, 'petstore'));
        assert.equal(content.filesystem['openapi.yaml'].info.title, 'Swagger Petstore');
        const same = await expectOk(api.getOpenApiSpecVersionContentById(fx.org.id, 'petstore', latest.id));
        assert.deepEqual(same.filesystem, content.filesystem);
        // The reader sees the spec and cannot change it.
        const reader = fx.members[0].api.orgs;
        const seen = await expectOk(reader.getOpenApiSpecBySlug(fx.org.id, 'petstore'));
        assert.deepEqual(seen.permissions, { view: true, edit: false });
        await expectError(reader.updateOpenApiSpecBySlug(fx.org.id, 'petstore', { visibility: 'public' }), 403);
    });

    it('PUT replaces or creates, PATCH changes the visibility, DELETE removes', async () => {
        const api = fx.owner.api.orgs;
        await expectOk(api.createOrUpdateOpenApiSpecBySlug(fx.org.id, 'pets31', { source: { text: petstore('v3.1') } }), 201);
        const first = await processed(api, fx.org.id, 'pets31');
        const replaced = await expectOk(api.createOrUpdateOpenApiSpecBySlug(fx.org.id, 'pets31', { source: { text: petstore('v2.0') } }));
        assert.equal(replaced.id, first.id);
        const second = await processed(api, fx.org.id, 'pets31');
        assert.notEqual(second.lastVersion, first.lastVersion);
        const versions = await expectOk(api.listOpenApiSpecVersions(fx.org.id, 'pets31', { limit: 1 }));
        assert.equal(versions.count, 2);
        assert.deepEqual(versions.items.map((v) => v.id), [second.lastVersion]);
        assert.ok(versions.next?.page);
        const older = await expectOk(api.listOpenApiSpecVersions(fx.org.id, 'pets31', { limit: 1, page: versions.next.page }));
        assert.deepEqual(older.items.map((v) => v.id), [first.lastVersion]);
        const shown = await expectOk(api.updateOpenApiSpecBySlug(fx.org.id, 'pets31', { visibility: 'public' }));
        assert.equal(shown.visibility, 'public');
        assert.ok(shown.urls.published);
        await expectOk(api.deleteOpenApiSpecBySlug(fx.org.id, 'pets31'), 204);
        await expectOk(api.deleteOpenApiSpecBySlug(fx.org.id, 'pets31'), 204);
        await expectError(api.getOpenApiSpecBySlug(fx.org.id, 'pets31'), 404);
        await expectError(api.listOpenApiSpecVersions(fx.org.id, 'pets31'), 404);
        await expectError(api.getLatestOpenApiSpecVersion(fx.org.id, 'pets31'), 404);
        await expectError(api.getOpenApiSpecVersionContentById(fx.org.id, 'pets31', first.lastVersion), 404);
    });

    it('the openapi template on a spec adds API reference pages computed from its latest version', async () => {
        const orgs = fx.owner.api.orgs;
        await expectOk(orgs.createOpenApiSpec(fx.org.id, { slug: 'reference', source: { text: petstore('v3.0') } }), 201);
        await processed(orgs, fx.org.id, 'reference');
        const space = await expectOk(orgs.createSpace(fx.org.id, { title: 'API' }), 201);
        const api = fx.owner.api.spaces;
        await expectOk(api.applyTemplateToSpace(space.id, { id: 'openapi', params: { contentRefs: { spec: { kind: 'openapi', spec: 'reference' } } } }), 201);
        await expectError(api.applyTemplateToSpace(space.id, { id: 'openapi', params: { contentRefs: { spec: { kind: 'openapi', spec: 'missing' } } } }), 400, /spec/);
        const top = await expectOk(api.getPageByPath(space.id, 'api-reference'));
        assert.equal(top.computed.type, 'builtin:openapi');
        assert.deepEqual(top.computed.props, { doc: 'info', page: 'API reference' });
        const pets = await expectOk(api.getPageByPath(space.id, 'api-reference/pets'));
        const operations = pets.document.nodes.filter((node) => node.type === 'openapi-operation');
        assert.deepEqual(operations.map((node) => `${node.data.method} ${node.data.path}`), ['get /pets', 'post /pets', 'get /pets/{petId}']);
        const stored = await expectOk(api.getPageById(space.id, top.id, { computed: false }));
        assert.equal(stored.type, 'computed');
    });

    it('without a valid token every operation is a 401', async () => {
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/openapi`);
        await expectUnauthorized(ctx, 'POST', `/orgs/${fx.org.id}/openapi`, { slug: 'x', source: { text: 'x' } });
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/openapi/petstore/versions/latest`);
        await expectUnauthorized(ctx, 'DELETE', `/orgs/${fx.org.id}/openapi/petstore`);
    });

    it('an invalid spec completes with a parse error and no version', async () => {
        const api = fx.owner.api.orgs;
        await expectOk(api.createOpenApiSpec(fx.org.id, { slug: 'broken', source: { text: '{"openapi": "3.0.0"}' } }), 201);
        const spec = await processed(api, fx.org.id, 'broken');
        assert.equal(spec.lastProcessErrorCode, 'PARSE_ERROR');
        assert.ok(spec.lastProcessedErrors.length > 0);
        assert.equal(spec.lastVersion, undefined);
        await expectError(api.getLatestOpenApiSpecVersion(fx.org.id, 'broken'), 404);
    });
});
