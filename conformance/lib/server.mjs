// Starts the real local runner (`python -m local.server`) as a child process and stops it.
//
// One server serves the whole run: lib/run.mjs starts it before `node --test` and hands its
// address to the test processes through the environment (see lib/context.mjs).
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const CONFORMANCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(CONFORMANCE_DIR, '..');
const READY = /Bindery API listening on (http:\/\/\S+?\/v1)\b/;
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 64 * 1024;

/** The python that runs the server and the admin CLI: $PYTHON, else ../.venv/bin/python. */
export function pythonPath() {
    const configured = process.env.PYTHON || path.join('..', '.venv', 'bin', 'python');
    // Relative paths are relative to conformance/ (where `npm test` runs), whatever the cwd.
    return path.isAbsolute(configured) || !configured.includes(path.sep)
        ? configured
        : path.resolve(CONFORMANCE_DIR, configured);
}

function freePort() {
    return new Promise((resolve, reject) => {
        const probe = createServer();
        probe.unref();
        probe.on('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const { port } = probe.address();
            probe.close(() => resolve(port));
        });
    });
}

/**
 * Starts `python -m local.server` from the repository root on a free port, with a fresh data
 * directory and a random bootstrap token, and resolves once it prints its readiness line.
 * Returns { url, port, token, dataDir, env, pid, stop() }.
 */
export async function startServer({ python = pythonPath(), extraEnv = {} } = {}) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bindery-conformance-'));
    const token = `gb_api_conformance_${randomBytes(24).toString('hex')}`;
    const env = {
        ...process.env,
        BINDERY_PORT: String(port),
        BINDERY_DATA_DIR: dataDir,
        BINDERY_BOOTSTRAP_TOKEN: token,
        BINDERY_QUIET: '1',
        // One event at a time: the Git Sync test's polls wait on the worker only because a request
        // waits for a queue delivery then (tests/local/test_environments.py covers the environments).
        BINDERY_ENVIRONMENTS: '0',
        ...extraEnv,
    };
    // Its own process group, so stopping it also stops whatever it started (DynamoDB Local…).
    const child = spawn(python, ['-m', 'local.server'], {
        cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const record = (chunk) => {
        log += chunk.toString();
        if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
    };
    let exited = null;
    const exit = new Promise((resolve) => {
        child.on('exit', (code, signal) => { exited = { code, signal }; resolve(exited); });
    });

    const url = await new Promise((resolve, reject) => {
        let pending = '';
        const timer = setTimeout(() => {
            finish(new Error(`local.server did not print its readiness line within ${READY_TIMEOUT_MS / 1000} s.\n--- output ---\n${log}`));
        }, READY_TIMEOUT_MS);
        function finish(error, value) {
            clearTimeout(timer);
            child.stdout.off('data', onData);
            child.stderr.off('data', onData);
            if (error) reject(error); else resolve(value);
        }
        function onData(chunk) {
            pending += chunk.toString();
            const match = READY.exec(pending);
            if (match) finish(null, match[1]);
            else if (pending.length > LOG_LIMIT) pending = pending.slice(-1024);
        }
        child.stdout.on('data', record);
        child.stderr.on('data', record);
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('error', (error) => finish(new Error(`cannot start ${python} -m local.server: ${error.message}`)));
        exit.then(({ code, signal }) => finish(new Error(`local.server exited (code ${code}, signal ${signal}) before it was ready.\n--- output ---\n${log}`)));
    }).catch(async (error) => {
        await stopGroup(child, exit, () => exited);
        rmSync(dataDir, { recursive: true, force: true });
        throw error;
    });

    const announcedPort = Number(new URL(url).port);
    if (announcedPort !== port) {
        await stopGroup(child, exit, () => exited);
        throw new Error(`local.server ignored BINDERY_PORT=${port}: it announced ${url}`);
    }

    return {
        url, port, token, dataDir, env, pid: child.pid, adminEnv: adminEnvFor(env, log),
        output: () => log,
        async stop() {
            await stopGroup(child, exit, () => exited);
            rmSync(dataDir, { recursive: true, force: true });
        },
    };
}

async function stopGroup(child, exit, exited) {
    if (exited() || child.pid === undefined) return;
    const signal = (name) => {
        try { process.kill(-child.pid, name); } catch { /* already gone */ }
    };
    signal('SIGTERM');
    const timeout = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS, 'timeout').unref());
    if (await Promise.race([exit, timeout]) === 'timeout') {
        signal('SIGKILL');
        await exit;
    }
}

/**
 * The environment for `python -m bindery.platform.admin` against the running server's storage. The runner
 * prints "Storage: <engine> at <endpoint>…" before its readiness line; the admin CLI reaches the
 * same table through BINDERY_DYNAMODB_ENDPOINT (the runner's own engine lives in its process
 * tree, so this is the only way in). Null when the line is missing.
 */
function adminEnvFor(env, log) {
    const storage = /^Storage: .*? at (https?:\/\/[^\s,]+)/m.exec(log);
    const endpoint = env.BINDERY_DYNAMODB_ENDPOINT || storage?.[1];
    if (!endpoint) return null;
    const layer = path.join(REPO_ROOT, 'layers', 'shared');
    return {
        ...env,
        BINDERY_DYNAMODB_ENDPOINT: endpoint,
        PYTHONPATH: env.PYTHONPATH ? `${layer}${path.delimiter}${env.PYTHONPATH}` : layer,
        AWS_REGION: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
        // Local engines accept any credentials; boto3 just needs some (the runner does the same).
        ...(env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE ? {} : { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' }),
    };
}

/** Synchronous last resort (process 'exit' handlers cannot await): kill the server's group. */
export function killGroupSync(pid) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
}

/** Runs `python -m bindery.platform.admin ARGS` from the repository root with `env`; resolves its JSON output. */
export function runAdmin(args, env, python = pythonPath()) {
    return new Promise((resolve, reject) => {
        execFile(python, ['-m', 'bindery.platform.admin', ...args], { cwd: REPO_ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
            if (error) {
                reject(new Error(`python -m bindery.platform.admin ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
                return;
            }
            try {
                resolve(JSON.parse(stdout.trim().split('\n').pop()));
            } catch {
                reject(new Error(`python -m bindery.platform.admin ${args.join(' ')}: output is not JSON:\n${stdout}${stderr}`));
            }
        });
    });
}
