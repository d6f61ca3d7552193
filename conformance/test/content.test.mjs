// Space content reads: GET …/content (getCurrentRevision), …/content/pages, …/content/files,
// …/content/files/{id}, …/content/page/{id}, …/content/path/{path}, …/content/reusable-contents/{id},
// and the /revisions/{revisionId} variants.
//
// Through the API a space only has its first, empty revision: nothing writes content yet (Git import
// and change requests will). So these check the empty tree's shapes and every 404 against the spec;
// tests/api/content/test_content_reads.py reads rich revisions (nested pages, documents, files) built in-process.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

describe('space content: the first revision of a new space', () => {
    let fx;
    let space;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Content' }), 201);
    });

    it('getCurrentRevision is the space\'s revision, empty, for a reader too', async () => {
        const revision = await expectOk(fx.owner.api.spaces.getCurrentRevision(space.id));
        assert.equal(revision.object, 'revision');
        assert.equal(revision.id, space.revision);
        assert.equal(revision.type, 'edits');
        assert.deepEqual([revision.parents, revision.pages, revision.files, revision.reusableContents], [[], [], [], []]);
        assert.ok(revision.urls.app.includes(space.id));
        const asReader = await expectOk(fx.members[0].api.spaces.getCurrentRevision(space.id, { metadata: false, computed: false }));
        assert.equal(asReader.id, revision.id);
    });

    it('getRevisionById reads the same revision', async () => {
        const current = await expectOk(fx.owner.api.spaces.getCurrentRevision(space.id));
        assert.deepEqual(await expectOk(fx.owner.api.spaces.getRevisionById(space.id, space.revision)), current);
    });

    it('lists no pages and no files', async () => {
        assert.deepEqual(await expectOk(fx.owner.api.spaces.listPages(space.id)), { pages: [] });
        assert.deepEqual(await expectOk(fx.owner.api.spaces.listPagesInRevisionById(space.id, space.revision)), { pages: [] });
        assert.deepEqual((await expectOk(fx.owner.api.spaces.listFiles(space.id, { limit: 10 }))).items, []);
        assert.deepEqual((await expectOk(fx.owner.api.spaces.listFilesInRevisionById(space.id, space.revision))).items, []);
    });

    it('unknown pages, paths, files and reusable contents are 404s', async () => {
        const api = fx.owner.api.spaces;
        await expectError(api.getPageById(space.id, 'nope'), 404, /page/);
        await expectError(api.getPageById(space.id, 'nope', { format: 'document', evaluated: 'deterministic-only' }), 404, /page/);
        await expectError(api.getPageByPath(space.id, 'nope'), 404, /page/);
        await expectError(api.getFileById(space.id, 'nope'), 404, /file/);
        await expectError(api.getReusableContentById(space.id, 'nope'), 404, /reusable content/);
        await expectError(api.getPageInRevisionById(space.id, space.revision, 'nope'), 404, /page/);
        await expectError(api.getPageDocumentInRevisionById(space.id, space.revision, 'nope'), 404, /page/);
        await expectError(api.getPageInRevisionByPath(space.id, space.revision, 'nope'), 404, /page/);
        await expectError(api.getFileInRevisionById(space.id, space.revision, 'nope'), 404, /file/);
        await expectError(api.getReusableContentInRevisionById(space.id, space.revision, 'nope'), 404, /reusable content/);
    });

    it('unknown revisions, and revisions of another space, are 404s', async () => {
        const other = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Other' }), 201);
        await expectError(fx.owner.api.spaces.getRevisionById(space.id, 'nope'), 404, /revision/);
        await expectError(fx.owner.api.spaces.getRevisionById(space.id, other.revision), 404, /revision/);
        await expectError(fx.owner.api.spaces.listPagesInRevisionById(space.id, other.revision), 404, /revision/);
    });

    it('an invalid `evaluated` or `format` is a 400', async () => {
        await expectError(fx.owner.api.spaces.getPageById(space.id, 'nope', { evaluated: 'sometimes' }), 400, /evaluated/);
        await expectError(fx.owner.api.spaces.getPageById(space.id, 'nope', { format: 'html' }), 400, /format/);
    });

    it('404 for someone without access, 401 without a token', async () => {
        const stranger = await ctx.createUser();
        await expectError(stranger.api.spaces.getCurrentRevision(space.id), 404, /space/);
        await expectError(stranger.api.spaces.listPages(space.id), 404, /space/);
        await expectError(stranger.api.spaces.getRevisionById(space.id, space.revision), 404, /space/);
        await expectUnauthorized(ctx, 'GET', `/spaces/${space.id}/content`);
        await expectUnauthorized(ctx, 'GET', `/spaces/${space.id}/revisions/${space.revision}/pages`);
    });
});
