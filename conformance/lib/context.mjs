// What a test file needs: the server (shared, from lib/run.mjs, or its own when the file is run
// alone), API clients whose every response is validated against the spec, raw fetch for what the
// client cannot send, and users made with the admin CLI.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, after } from 'node:test';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { expectResponse, operationFor } from './schema.mjs';
import { startServer, runAdmin } from './server.mjs';

export const SERVER_ENV = 'BINDERY_CONFORMANCE_SERVER';

/** Every validated response, in order: { method, path, operationId, status, body }. */
export const seen = [];
const bodies = new WeakMap(); // Response → parsed body, for the error bodies the client consumes

/**
 * Fetches, then validates the response against the spec operation the request is for (found
 * from method + path; Bindery's extension POST /orgs is known too). Throws on a response that
 * breaks the contract, on an undocumented path, and on a non-JSON body.
 */
async function validatedFetch(input, init = {}) {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const apiPath = url.pathname.replace(/^\/v1(?=\/)/, '');
    // `sam local start-api` serves the routes without API Gateway's stage (make test-sam says so).
    const response = await fetch(connection()?.stageInPath === false ? new Request(new URL(apiPath + url.search, url), {
        method: request.method, headers: request.headers, redirect: request.redirect,
        body: ['GET', 'HEAD'].includes(request.method) ? undefined : await request.clone().arrayBuffer(),
    }) : request);
    const op = operationFor(request.method, apiPath);
    if (!op) assert.fail(`${request.method} ${apiPath} is not an operation of the spec`);
    const text = await response.clone().text();
    let body;
    if (text !== '') {
        const type = response.headers.get('content-type') ?? '';
        assert.match(type, /^application\/json\b/, `${request.method} ${apiPath} → ${response.status}: content-type ${type} for body ${text.slice(0, 500)}`);
        try {
            body = JSON.parse(text);
        } catch {
            assert.fail(`${request.method} ${apiPath} → ${response.status}: body is not JSON: ${text.slice(0, 500)}`);
        }
    }
    // `sam local` applies none of the template's gateway responses: a request without a token gets
    // SAM's own {"message": "Unauthorized"}, and one whose token the authorizer refuses SAM's
    // 502 {"message": "Internal server error"} (refusedStatus), where API Gateway sends the template's
    // error body (which the moto tier's gateway checks). The status is still checked by the test.
    const samsOwn = underSamLocal() && body && Object.keys(body).join() === 'message'
        && (response.status === 401 || (response.status === 502 && request.headers.has('authorization')));
    if (!samsOwn) expectResponse(op.operationId, response.status, body);
    seen.push({ method: request.method, path: apiPath, operationId: op.operationId, status: response.status, body });
    bodies.set(response, body);
    return response;
}

function connection() {
    const raw = process.env[SERVER_ENV];
    return raw ? JSON.parse(raw) : null;
}

/** The server is `sam local start-api` (make test-sam), which serves the routes without the stage. */
function underSamLocal() {
    return connection()?.stageInPath === false;
}

/**
 * The status a request refused for its token gets: 401, as API Gateway answers when the TOKEN
 * authorizer raises "Unauthorized" (and when there is no token). SAM CLI (1.170) answers a raising
 * authorizer with 502 instead (it reads the error as an invalid policy, InvalidLambdaAuthorizerResponse),
 * and no other way of refusing is a 401 in both (a Deny policy is a 403 in both): under `sam local`,
 * a request that carries an Authorization header and is refused is that 502 (docs/local-runner.md).
 */
export function refusedStatus(headers) {
    return underSamLocal() && headers.Authorization !== undefined ? 502 : 401;
}

/**
 * The address a function reaches this machine at, for servers a test starts for the functions to
 * call (webhook receivers): under `sam local` the functions run in containers, where 127.0.0.1 is the
 * container itself, and make test-sam names Docker's bridge.
 */
export function hostForFunctions() {
    return connection()?.hostForFunctions ?? '127.0.0.1';
}

/**
 * The Git server the functions reach the tests' repositories through, when they cannot read this
 * machine's files (sam local): { root, url }, repositories under `root` served at `url` + their path.
 */
export function gitServer() {
    return connection()?.gitServer ?? null;
}

/**
 * Registers before/after hooks for the file and returns the context they fill:
 * { url, token (bootstrap admin), adminEnv, api (client for the admin), client(token), raw(...), createUser(...) }.
 */
export function useServer() {
    const ctx = {};
    let own = null;
    before(async () => {
        let info = connection();
        if (!info) {
            own = await startServer(); // file run alone: `node --test test/x.test.mjs`
            info = { url: own.url, token: own.token, adminEnv: own.adminEnv };
        }
        Object.assign(ctx, info);
        ctx.api = client(info.url, info.token);
        ctx.client = (token) => client(info.url, token);
        ctx.raw = (method, path, options) => raw(info.url, method, path, options);
        ctx.createUser = (options) => createUser(info, options);
    }, { timeout: 120_000 });
    after(async () => {
        if (own) await own.stop();
    });
    return ctx;
}

function client(url, authToken) {
    // The client adds /v1 itself. serviceBinding is the client's hook for its fetch: every
    // request it makes goes through validatedFetch.
    return new GitBookAPI({
        authToken,
        endpoint: url.replace(/\/v1$/, ''),
        serviceBinding: { fetch: validatedFetch },
    });
}

/** fetch without the client (the POST /orgs extension, requests without or with bad tokens). */
async function raw(url, method, path, { token, body, headers = {} } = {}) {
    const sent = { ...headers };
    if (token !== undefined) sent.Authorization = `Bearer ${token}`;
    if (body !== undefined) sent['Content-Type'] = 'application/json';
    const response = await validatedFetch(`${url}${path}`, {
        method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: bodies.get(response), headers: response.headers };
}

/** A unique, valid suffix for names, emails and domains. */
export function unique(prefix = 'x') {
    return `${prefix}${randomBytes(5).toString('hex')}`;
}

/**
 * A new user with a token, made with `python -m bindery.platform.admin create-user` against the server's
 * engine. Returns { userId, token, email, api }.
 */
async function createUser(info, { name = unique('User '), email = `${unique('u')}@example.com`, verified = true } = {}) {
    const args = ['create-user', '--name', name, '--email', email];
    if (!verified) args.push('--unverified');
    const issued = await runAdmin(args, adminEnv(info));
    assert.ok(issued.userId && issued.token, `admin create-user printed ${JSON.stringify(issued)}`);
    return { userId: issued.userId, token: issued.token, email, name, api: client(info.url, issued.token) };
}

function adminEnv(info) {
    if (!info.adminEnv) assert.fail('local.server did not report its storage endpoint ("Storage: … at http://…"), so the admin CLI cannot reach its table');
    return info.adminEnv;
}

/**
 * Awaits a client call expected to fail with `status` (and, given a pattern, an error message
 * matching it); returns the (already validated) error body. Fails if the call succeeds or fails
 * otherwise. `label` names the case in the failure message.
 */
export async function expectError(promise, status, messagePattern, label = '') {
    const what = label ? `${label}: ` : '';
    let result;
    try {
        result = await promise;
    } catch (error) {
        if (!(error instanceof GitBookAPIError)) throw error;
        const body = bodies.get(error.response);
        const request = `${error.response.url.replace(/^https?:\/\/[^/]+/, '')}`;
        assert.equal(error.code, status, `${what}${request}: expected HTTP ${status}, got ${error.code}: ${JSON.stringify(body)}`);
        if (messagePattern) assert.match(body.error.message, messagePattern, `${what}${request}: the error message should match ${messagePattern}`);
        return body;
    }
    assert.fail(`${what}${result.url.replace(/^https?:\/\/[^/]+/, '')}: expected HTTP ${status}, got ${result.status}: ${JSON.stringify(result.data)}`);
}

/** The status and data of a successful client call, asserting the status. */
export async function expectOk(promise, status = 200) {
    const response = await promise;
    assert.equal(response.status, status, `expected HTTP ${status}, got ${response.status}`);
    return response.data;
}

/**
 * Asserts that `method path` answers 401 with the error shape both without a token and with an
 * unknown one (raw fetch: the client always sends its token); under sam local, see refusedStatus.
 */
export async function expectUnauthorized(ctx, method, path, body) {
    for (const headers of [{}, { Authorization: 'Bearer gb_api_never_issued_0123456789abcdef0123456789' }]) {
        const res = await ctx.raw(method, path, { headers, body });
        assert.equal(res.status, refusedStatus(headers), `${method} ${path} ${headers.Authorization ? 'with an unknown token' : 'without a token'}: got ${res.status} ${JSON.stringify(res.body)}`);
    }
}
