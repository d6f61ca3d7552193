// Git repositories for the tests (made with the repository's Python and dulwich: tests/git_repos.py)
// and Git Sync runs awaited through their run resource.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, pythonPath } from './server.mjs';
import { expectResponse } from './schema.mjs';
import { gitServer } from './context.mjs';

const POLLS = 100;

/**
 * Runs tests/git_repos.py (dulwich) with the repository's Python: `op` is bare | files | head. `bare`
 * answers the repository's URL: file://, or, when the functions cannot read this machine's files
 * (sam local), its URL on the Git server that serves them (gitServer()).
 */
export async function gitRepos(op, repoPath, files = {}) {
    const answer = await runGitRepos(op, repoPath, files);
    const served = gitServer();
    if (op !== 'bare' || !served) return answer;
    const relative = path.relative(served.root, path.resolve(repoPath));
    assert.ok(!relative.startsWith('..') && !path.isAbsolute(relative), `${repoPath} is outside ${served.root}, which the Git server serves`);
    return `${served.url}/${relative.split(path.sep).join('/')}`;
}

function runGitRepos(op, repoPath, files) {
    const script = [
        'import json, sys',
        'from pathlib import Path',
        'from tests.git_repos import bare_repo, branch_files, branch_head',
        'op, where, files = sys.argv[1], Path(sys.argv[2]), json.loads(sys.argv[3])',
        'if op == "bare": print(json.dumps(bare_repo(where, {k: v.encode() for k, v in files.items()} or None)))',
        'elif op == "files": print(json.dumps({k: v.decode("utf-8", "replace") for k, v in branch_files(where).items()}))',
        'else:',
        '    head = branch_head(where)',
        '    print(json.dumps({"id": head.id.decode(), "parents": [p.decode() for p in head.parents], "message": head.message.decode()}))',
    ].join('\n');
    const env = { ...process.env, PYTHONPATH: [path.join(REPO_ROOT, 'layers', 'shared'), REPO_ROOT].join(path.delimiter) };
    return new Promise((resolve, reject) => {
        execFile(pythonPath(), ['-c', script, op, repoPath, JSON.stringify(files)], { cwd: REPO_ROOT, env, timeout: 60_000 },
            (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))));
    });
}

/** The run a 204 named, polled until it is no longer pending or running (each poll awaits the server). */
export async function finished(ctx, response, token) {
    assert.equal(response.status, 204);
    const location = response.headers.get('location');
    assert.match(location, /\/spaces\/[^/]+\/git\/runs\/[^/]+$/);
    for (let i = 0; i < POLLS; i += 1) {
        // The run's path under the API's base URL (under sam local, neither names the stage /v1).
        const runPath = new URL(location, ctx.url).pathname.replace(/^\/v1(?=\/)/, '');
        const reply = await fetch(`${ctx.url}${runPath}`, { headers: { Authorization: `Bearer ${token}` } });
        assert.equal(reply.status, 200);
        const run = await reply.json();
        expectResponse('bindery:getGitRun', reply.status, run);
        if (run.status !== 'pending' && run.status !== 'running') return run;
    }
    assert.fail(`the run at ${location} did not finish after ${POLLS} polls`);
}
