// Sites: GET/POST /orgs/{id}/sites, GET/PATCH/DELETE …/sites/{siteId}, POST …/publish,
// GET/POST …/site-spaces, PATCH/DELETE …/site-spaces/{siteSpaceId}, GET/PATCH …/publishing/auth and
// POST …/publishing/auth/regenerate.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers, walk } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('sites', () => {
    let fx;
    let spaces;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['edit'] });
        spaces = [];
        for (const title of ['User Guide', 'API']) {
            spaces.push(await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title }), 201));
        }
    });

    it('creates a site with a site space per space, reads and lists it', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Docs', spaces: spaces.map((s) => s.id) }), 201);
        assert.equal(site.type, 'basic');
        assert.equal(site.siteSpaces, 2);
        assert.equal(site.published, false);
        assert.deepEqual(await expectOk(api.getSiteById(fx.org.id, site.id)), site);
        const siteSpaces = await expectOk(api.listSiteSpaces(fx.org.id, site.id));
        assert.deepEqual(siteSpaces.items.map((s) => [s.space.id, s.path, s.default]),
            [[spaces[0].id, 'user-guide', true], [spaces[1].id, 'api', false]]);
        const listed = await walk((query) => api.listSites(fx.org.id, query), 1);
        assert.ok(listed.items.some((s) => s.id === site.id));
        const bySpace = await expectOk(api.listSites(fx.org.id, { space: spaces[1].id }));
        assert.deepEqual(bySpace.items.map((s) => s.id), [site.id]);
    });

    it('updates, publishes and deletes a site', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Handbook' }), 201);
        const changed = await expectOk(api.updateSiteById(fx.org.id, site.id, {
            title: 'Handbook 2', basename: 'handbook', visibility: 'unlisted', proxy: 'example.com/docs',
        }));
        assert.equal(changed.basename, 'handbook');
        assert.equal(changed.proxy.origin, 'example.com/docs');
        await expectError(api.updateSiteById(fx.org.id, site.id, { proxy: 'https://example.com/docs' }), 400, /proxy/);
        const published = await expectOk(api.publishSite(fx.org.id, site.id));
        assert.equal(published.published, true);
        assert.equal(published.urls.published, 'https://example.com/docs'); // the proxy is where readers go
        await expectOk(api.deleteSiteById(fx.org.id, site.id), 204);
        await expectError(api.getSiteById(fx.org.id, site.id), 404);
        await expectOk(api.deleteSiteById(fx.org.id, site.id), 204);
    });

    it('site spaces: add, change, remove', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Spaces' }), 201);
        const added = await expectOk(api.addSpaceToSite(fx.org.id, site.id, { spaceId: spaces[0].id }), 201);
        assert.equal(added.default, true);
        const second = await expectOk(api.addSpaceToSite(fx.org.id, site.id, { spaceId: spaces[1].id }), 201);
        const changed = await expectOk(api.updateSiteSpaceById(fx.org.id, site.id, second.id,
            { path: 'reference', condition: 'visitor.claims.beta' }));
        assert.equal(changed.path, 'reference');
        assert.equal(changed.condition, 'visitor.claims.beta');
        await expectError(api.updateSiteSpaceById(fx.org.id, site.id, second.id, { path: 'user-guide' }), 400, /path/);
        await expectOk(api.deleteSiteSpaceById(fx.org.id, site.id, added.id), 204);
        const left = await expectOk(api.listSiteSpaces(fx.org.id, site.id));
        assert.deepEqual(left.items.map((s) => [s.id, s.default]), [[second.id, true]]);
        assert.equal(left.count, 1);
    });

    it('publishing auth: the key of visitor tokens, its fallback URL, regenerated', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Members only', visibility: 'visitor-auth' }), 201);
        const first = await expectOk(api.getSitePublishingAuthById(fx.org.id, site.id));
        assert.equal(first.object, 'publishing-auth');
        assert.equal(first.backend, 'custom');
        assert.deepEqual(await expectOk(api.getSitePublishingAuthById(fx.org.id, site.id)), first);
        const changed = await expectOk(api.updateSitePublishingAuthById(fx.org.id, site.id, {
            backend: 'custom', fallbackURL: 'https://example.com/login',
        }));
        assert.equal(changed.fallbackURL, 'https://example.com/login');
        const regenerated = await expectOk(api.regenerateSitePublishingAuthById(fx.org.id, site.id));
        assert.notEqual(regenerated.privateKey, first.privateKey);
        await expectError(fx.members[0].api.orgs.getSitePublishingAuthById(fx.org.id, site.id), 403);
        await expectError(api.updateSitePublishingAuthById(fx.org.id, site.id, { backend: 'custom', fallbackURL: 'ftp://x' }), 400, /fallbackURL/);
        await expectError(api.getSitePublishingAuthById(fx.org.id, 'nothing'), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/sites/${site.id}/publishing/auth`);
    });

    it('members read, admins manage, strangers see nothing', async () => {
        const site = await expectOk(fx.owner.api.orgs.createSite(fx.org.id, { title: 'Shared' }), 201);
        const member = fx.members[0].api.orgs;
        await expectOk(member.getSiteById(fx.org.id, site.id));
        await expectError(member.createSite(fx.org.id, { title: 'Mine' }), 403);
        await expectError(member.publishSite(fx.org.id, site.id), 403);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.getSiteById(fx.org.id, site.id), 404);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/sites`);
    });
});
