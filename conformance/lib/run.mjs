// `npm test`: starts one Bindery (python -m local.server) for the whole run, runs `node --test`
// against it, stops it, and exits with node's status. Arguments are passed to `node --test`
// (default: test/), e.g. `npm test -- test/orgs.test.mjs`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startServer, killGroupSync, CONFORMANCE_DIR } from './server.mjs';
import { SERVER_ENV } from './context.mjs';

const args = process.argv.slice(2);
const files = args.length ? args : ['test/'];

let server;
try {
    server = await startServer();
} catch (error) {
    console.error(`conformance: ${error.message}`);
    process.exit(1);
}
process.on('exit', () => killGroupSync(server.pid));

const child = spawn(process.execPath, ['--test', ...files], {
    cwd: CONFORMANCE_DIR,
    stdio: 'inherit',
    env: { ...process.env, [SERVER_ENV]: JSON.stringify({ url: server.url, token: server.token, adminEnv: server.adminEnv }) },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
        child.kill(signal);
    });
}
const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
const output = server.output().trim();
await server.stop();
if (code !== 0 && output) {
    console.error(`\n--- local.server output (${path.basename(process.execPath)} exit ${code ?? signal}) ---\n${output.slice(-8000)}`);
}
process.exit(code ?? 1);
