// Git Sync through the official client: importGitRepository from a file:// repository the test makes
// (the local runner allows file:// and delivers the Git Sync queue to its worker in process; under sam
// local, whose function containers cannot read it, the repository is served over HTTP: lib/git.mjs), the
// imported pages read back with the client, then exportToGitRepository and the pushed commit read back.
//
// Both POSTs answer 204 ("operation started") with a Location naming the run; the run
// (GET /spaces/{id}/git/runs/{runId}, a Bindery extension outside the spec) is polled a bounded number
// of times, each poll awaiting the server's answer: no fixed sleeps.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { useServer, expectOk, expectError } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';
import { finished, gitRepos } from '../lib/git.mjs';

const ctx = useServer();

const FILES = {
    'README.md': '# Welcome\n\nImported from Git.\n',
    'SUMMARY.md': '# Summary\n\n* [Welcome](README.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n',
    'setup/README.md': '# Setup\n\nHow to set it up.\n',
    'setup/linux.md': '# Linux\n\n```bash\nmake install\n```\n',
};

describe('Git Sync', () => {
    let fx;
    let space;
    let dir;
    let source;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Synced' }), 201);
        dir = await mkdtemp(path.join(os.tmpdir(), 'bindery-git-'));
        source = await gitRepos('bare', path.join(dir, 'source.git'), FILES);
    });

    it('importGitRepository starts a run; its pages then read back with the client', async () => {
        const api = fx.owner.api.spaces;
        const run = await finished(ctx, await api.importGitRepository(space.id, { url: source, ref: 'refs/heads/main' }), fx.owner.token);
        assert.equal(run.status, 'succeeded', run.error);
        const { pages } = await expectOk(api.listPages(space.id));
        assert.deepEqual(pages.map((p) => p.title), ['Welcome', 'Setup']);
        assert.deepEqual(pages[1].pages.map((p) => p.path), ['setup/linux']);
        const linux = await expectOk(api.getPageByPath(space.id, 'setup/linux'));
        assert.ok(linux.document.nodes.some((node) => node.type === 'code'));
        const revision = await expectOk(api.getCurrentRevision(space.id));
        assert.equal(revision.id, run.revision);
        assert.equal(revision.git.oid, run.commit);
        const info = await expectOk(api.getSpaceGitInfo(space.id));
        assert.equal(info.url, source);
    });

    it('exportToGitRepository pushes a commit on the branch, on top of its head', async () => {
        const target = path.join(dir, 'target.git');
        const url = await gitRepos('bare', target, { 'LICENSE': 'MIT\n' });
        const parent = (await gitRepos('head', target)).id;
        const response = await fx.owner.api.spaces.exportToGitRepository(space.id, {
            url, ref: 'refs/heads/main', commitMessage: 'Docs from Bindery', repoProjectDirectory: 'docs',
        });
        const run = await finished(ctx, response, fx.owner.token);
        assert.equal(run.status, 'succeeded', run.error);
        const head = await gitRepos('head', target);
        assert.equal(head.id, run.commit);
        assert.deepEqual(head.parents, [parent]);
        const files = await gitRepos('files', target);
        assert.equal(files.LICENSE, 'MIT\n');
        assert.ok(files['docs/SUMMARY.md'].includes('setup/linux.md'));
        assert.ok(files['docs/setup/linux.md'].includes('make install'));
    });

    it('a failed import changes nothing and says why', async () => {
        const api = fx.owner.api.spaces;
        const before = await expectOk(api.getCurrentRevision(space.id));
        const run = await finished(ctx, await api.importGitRepository(space.id, { url: source, ref: 'refs/heads/missing' }), fx.owner.token);
        assert.equal(run.status, 'failed');
        assert.match(run.error, /refs\/heads\/missing does not exist/);
        assert.equal((await expectOk(api.getCurrentRevision(space.id))).id, before.id);
    });

    it('readers may not start runs; bodies are checked', async () => {
        await expectError(fx.members[0].api.spaces.importGitRepository(space.id, { url: source, ref: 'main' }), 403);
        await expectError(fx.owner.api.spaces.importGitRepository(space.id, { url: source }), 400, /ref/);
        await expectError(fx.owner.api.spaces.exportToGitRepository(space.id, { url: source, ref: 'main' }), 400, /commitMessage/);
        await expectError(fx.owner.api.spaces.importGitRepository(space.id, { url: 'ssh://git@example.com/a.git', ref: 'main' }), 400, /url/);
    });
});
