// Search (searchSpaceContent, searchOrganizationContent) and link checks (listSpaceLinks,
// listPageLinksInSpace, listSpaceFileBacklinks) through the official client.
//
// Spaces created through the API hold only their first, empty revision, so these check the shapes of
// empty results, the 400s and 404s; tests/api/search/test_search.py and tests/api/content/test_links.py (and the
// fluentd corpus in tests/search) search and check links of rich revisions built in-process.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('search and links of a new, empty space', () => {
    let fx;
    let space;
    let outsider;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Searchable' }), 201);
        outsider = await ctx.createUser({ name: 'Outsider' });
    });

    it('searchSpaceContent finds nothing, for a reader too', async () => {
        const found = await expectOk(fx.owner.api.spaces.searchSpaceContent(space.id, { query: 'install' }));
        assert.deepEqual(found.items, []);
        const asReader = await expectOk(fx.members[0].api.spaces.searchSpaceContent(space.id, { query: 'install', limit: 5 }));
        assert.deepEqual(asReader.items, []);
    });

    it('searchOrganizationContent lists no space without matches', async () => {
        const found = await expectOk(fx.owner.api.orgs.searchOrganizationContent(fx.org.id, { query: 'install' }));
        assert.deepEqual(found.items, []);
    });

    it('an empty or too long query is a 400', async () => {
        await expectError(fx.owner.api.spaces.searchSpaceContent(space.id, { query: '' }), 400, /query/);
        await expectError(fx.owner.api.spaces.searchSpaceContent(space.id, { query: 'x'.repeat(513) }), 400, /query/);
        await expectError(fx.owner.api.orgs.searchOrganizationContent(fx.org.id, { query: ' ' }), 400, /query/);
    });

    it('outsiders get 404s', async () => {
        await expectError(outsider.api.spaces.searchSpaceContent(space.id, { query: 'x' }), 404);
        await expectError(outsider.api.orgs.searchOrganizationContent(fx.org.id, { query: 'x' }), 404);
        await expectError(outsider.api.spaces.listSpaceLinks(space.id), 404);
    });

    it('listSpaceLinks has no links and zero stats; the status filter is checked', async () => {
        const links = await expectOk(fx.owner.api.spaces.listSpaceLinks(space.id));
        assert.deepEqual(links.items, []);
        assert.deepEqual(links.stats, { total: 0, broken: { total: 0 } });
        const broken = await expectOk(fx.members[0].api.spaces.listSpaceLinks(space.id, { status: 'broken', limit: 10 }));
        assert.deepEqual(broken.items, []);
        await expectError(fx.owner.api.spaces.listSpaceLinks(space.id, { status: 'nope' }), 400, /status/);
    });

    it('page links and file backlinks of unknown pages and files are 404s', async () => {
        await expectError(fx.owner.api.spaces.listPageLinksInSpace(space.id, 'nope'), 404, /page/);
        await expectError(fx.owner.api.spaces.listSpaceFileBacklinks(space.id, 'nope'), 404, /file/);
    });
});
