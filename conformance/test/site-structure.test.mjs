// Site sections, section groups, moves, customization, share links, the published profile and the
// adaptive schema, through the official client; every response validated against the spec.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('site structure and publishing', () => {
    let fx;
    let spaces;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['edit'] });
        spaces = [];
        for (const title of ['Guide', 'Reference', 'Changelog']) {
            spaces.push(await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title }), 201));
        }
    });

    it('sections: add, list, update, move, delete', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Docs', spaces: [spaces[0].id] }), 201);
        const first = await expectOk(api.addSectionToSite(fx.org.id, site.id, { spaceId: spaces[0].id, title: 'Guide' }), 201);
        assert.equal(first.default, true);
        assert.equal(first.siteSpaces.length, 1);
        const second = await expectOk(api.addSectionToSite(fx.org.id, site.id, { spaceId: spaces[1].id, icon: 'code' }), 201);
        const changed = await expectOk(api.updateSiteSectionById(fx.org.id, site.id, second.id,
            { title: 'API reference', path: 'api', condition: 'visitor.claims.beta == true', description: 'All endpoints' }));
        assert.equal(changed.path, 'api');
        await expectError(api.updateSiteSectionById(fx.org.id, site.id, second.id, { path: 'guide' }), 400, /path/);
        const moved = await expectOk(api.moveSiteSection(fx.org.id, site.id, second.id,
            { position: { before: { type: 'site-section', siteSection: first.id } } }));
        assert.equal(moved.id, second.id);
        await expectError(api.moveSiteSection(fx.org.id, site.id, second.id,
            { position: { after: { type: 'site-section', siteSection: 'nope' } } }), 400, /position/);
        const listed = await expectOk(api.listSiteSections(fx.org.id, site.id));
        assert.deepEqual(listed.items.map((s) => s.id), [second.id, first.id]);
        assert.equal(listed.count, 2);
        const extra = await expectOk(api.addSpaceToSite(fx.org.id, site.id, { spaceId: spaces[2].id, sectionId: first.id }), 201);
        await expectOk(api.moveSiteSpace(fx.org.id, site.id, extra.id,
            { position: { before: { type: 'site-space', siteSpace: first.siteSpaces[0].id } } }));
        await expectOk(api.updateSiteById(fx.org.id, site.id, { defaultSiteSection: first.id }));
        await expectOk(api.deleteSiteSectionById(fx.org.id, site.id, second.id), 204);
        await expectOk(api.deleteSiteSectionById(fx.org.id, site.id, second.id), 204);
        const left = await expectOk(api.listSiteSections(fx.org.id, site.id));
        assert.deepEqual(left.items.map((s) => [s.id, s.default]), [[first.id, true]]);
    });

    it('section groups: add, nest, list, update, membership, delete', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Grouped' }), 201);
        const a = await expectOk(api.addSectionToSite(fx.org.id, site.id, { spaceId: spaces[0].id }), 201);
        const b = await expectOk(api.addSectionToSite(fx.org.id, site.id, { spaceId: spaces[1].id }), 201);
        const outer = await expectOk(api.addSectionGroupToSite(fx.org.id, site.id, { title: 'Learn', sections: [a.id] }), 201);
        const inner = await expectOk(api.addSectionGroupToSite(fx.org.id, site.id, { title: 'Deep', parent: outer.id, icon: 'book' }), 201);
        const grown = await expectOk(api.addSectionToGroup(fx.org.id, site.id, inner.id, { sectionId: b.id }), 201);
        assert.deepEqual(grown.children.map((c) => c.id), [b.id]);
        const listed = await expectOk(api.listSiteSectionGroups(fx.org.id, site.id));
        assert.deepEqual(listed.items.map((g) => g.id), [outer.id, inner.id]);
        await expectOk(api.updateSiteSectionGroupById(fx.org.id, site.id, outer.id, { title: 'Learning', icon: null }));
        await expectError(api.addSectionGroupToSite(fx.org.id, site.id, { title: '' }), 400, /title/);
        await expectOk(api.removeSectionFromGroup(fx.org.id, site.id, inner.id, b.id), 204);
        await expectOk(api.removeSectionFromGroup(fx.org.id, site.id, inner.id, b.id), 204);
        await expectOk(api.deleteSiteSectionGroupById(fx.org.id, site.id, outer.id), 204);
        const profile = await expectOk(api.getPublishedContentSite(fx.org.id, site.id, {}));
        assert.equal(profile.structure.type, 'sections');
    });

    it('customization, share links and the published profile', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Partners', spaces: [spaces[0].id] }), 201);
        const settings = await expectOk(api.getSiteCustomizationById(fx.org.id, site.id, {}));
        settings.styling.theme = 'bold';
        assert.equal((await expectOk(api.updateSiteCustomizationById(fx.org.id, site.id, settings))).styling.theme, 'bold');
        await expectError(api.updateSiteCustomizationById(fx.org.id, site.id, { ...settings, ai: { mode: 'oracle' } }), 400, /ai/);
        const [siteSpace] = (await expectOk(api.listSiteSpaces(fx.org.id, site.id))).items;
        const over = await expectOk(api.overrideSiteSpaceCustomizationById(fx.org.id, site.id, siteSpace.id,
            { styling: { theme: 'muted' } }));
        assert.equal(over.styling.theme, 'muted');
        assert.equal((await expectOk(api.getSiteSpaceCustomizationById(fx.org.id, site.id, siteSpace.id, {}))).styling.theme, 'muted');
        await expectOk(api.deleteSiteSpaceCustomizationById(fx.org.id, site.id, siteSpace.id), 204);
        await expectOk(api.updateSiteById(fx.org.id, site.id, { visibility: 'share-link' }));
        await expectOk(api.publishSite(fx.org.id, site.id));
        const link = await expectOk(api.createSiteShareLink(fx.org.id, site.id, { name: 'Acme' }), 201);
        const links = await expectOk(api.listSiteShareLinks(fx.org.id, site.id, {}));
        assert.deepEqual(links.items.map((l) => l.id), [link.id]);
        const shareKey = new URL(link.urls.published).searchParams.get('shareKey');
        const stranger = await ctx.createUser();
        await expectError(stranger.api.orgs.getPublishedContentSite(fx.org.id, site.id, {}), 404);
        const seen = await expectOk(stranger.api.orgs.getPublishedContentSite(fx.org.id, site.id, { shareKey }));
        assert.equal(seen.structure.type, 'siteSpaces');
        assert.equal(seen.customizations.site.styling.theme, 'bold');
        await expectOk(stranger.api.orgs.listSiteSpaces(fx.org.id, site.id, { shareKey }));
        await expectOk(api.updateSiteShareLinkById(fx.org.id, site.id, link.id, { active: false }));
        await expectError(stranger.api.orgs.getPublishedContentSite(fx.org.id, site.id, { shareKey }), 404);
        await expectOk(api.deleteSiteShareLinkById(fx.org.id, site.id, link.id), 204);
    });

    it('the adaptive schema and its template conditions', async () => {
        const api = fx.owner.api.orgs;
        const site = await expectOk(api.createSite(fx.org.id, { title: 'Adaptive' }), 201);
        await expectError(api.getSiteAdaptiveSchema(fx.org.id, site.id), 404);
        const jsonSchema = {
            type: 'object',
            properties: { isBeta: { type: 'boolean', description: 'In the beta' } },
            additionalProperties: false,
        };
        const saved = await expectOk(api.updateSiteAdaptiveSchema(fx.org.id, site.id, { jsonSchema }));
        assert.deepEqual(saved.jsonSchema, jsonSchema);
        await expectError(api.updateSiteAdaptiveSchema(fx.org.id, site.id,
            { jsonSchema: { ...jsonSchema, additionalProperties: true } }), 400, /additionalProperties/);
        const conditions = await expectOk(api.listSiteAdaptiveTemplateConditions(fx.org.id, site.id));
        assert.deepEqual(conditions.items, [{ description: 'In the beta', condition: 'visitor.claims.isBeta == true' }]);
    });
});
