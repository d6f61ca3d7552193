// Validates Bindery's responses against the official client's OpenAPI 3.0 document
// (node_modules/@gitbook/api/spec/openapi.json, the exact wire contract).
//
// OpenAPI 3.0 schemas are not JSON Schema; the translation done here:
//   * `nullable: true` adds "null" to `type` (and to `enum` when there is one); a nullable schema
//     without `type` (a $ref, a oneOf…) becomes `anyOf: [schema, {type: "null"}]`;
//   * `#/components/schemas/X` references become references into one registered document;
//   * annotations JSON Schema does not know (`example`, `discriminator`, `xml`, `externalDocs`)
//     are declared as no-op keywords and `x-*` extensions are dropped, so Ajv stays in strict
//     mode for everything else;
//   * formats come from ajv-formats (date-time, uri, int32, byte…); the OpenAPI-only formats the
//     document uses (`emoji`, `icon`) are accepted as no-ops.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const SPEC_PATH = require.resolve('@gitbook/api/spec/openapi.json');
export const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8'));

const DOC_ID = 'https://bindery.conformance/openapi.json';
const ANNOTATIONS = ['example', 'discriminator', 'xml', 'externalDocs'];
const NOOP_FORMATS = ['emoji', 'icon'];
const LITERALS = new Set(['example', 'examples', 'default', 'enum', 'const', 'required']);

/** OpenAPI 3.0 schema object → JSON Schema (draft-07, as Ajv's default dialect reads it). */
export function translate(node) {
    if (Array.isArray(node)) return node.map(translate);
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
        if (key === 'nullable' || key.startsWith('x-')) continue; // x-*: vendor annotations
        if (LITERALS.has(key)) {
            out[key] = value; // data, not schema: never rewritten
            continue;
        }
        if (key === '$ref' && typeof value === 'string') {
            const match = /^#\/components\/schemas\/(.+)$/.exec(value);
            if (!match) throw new Error(`unsupported $ref in a schema: ${value}`);
            out.$ref = `${DOC_ID}#/definitions/${match[1]}`;
            continue;
        }
        // Keys under `properties` are property names, not keywords: translate their values only.
        if (key === 'properties' && value && typeof value === 'object') {
            out.properties = Object.fromEntries(
                Object.entries(value).map(([name, schema]) => [name, translate(schema)]),
            );
            continue;
        }
        out[key] = translate(value);
    }
    if (node.nullable === true) {
        if (out.$ref || out.type === undefined) {
            // A $ref's siblings are ignored in draft-07; wrap so "null" is really allowed.
            const { description, deprecated, ...rest } = out;
            return { anyOf: [rest, { type: 'null' }] };
        }
        const types = Array.isArray(out.type) ? out.type : [out.type];
        if (!types.includes('null')) out.type = [...types, 'null'];
        if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    return out;
}

const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false, // OpenAPI documents routinely give `properties` without `type: object`
    strictTuples: false,
    allowUnionTypes: true, // `nullable` produces type arrays
    validateFormats: true,
});
addFormats(ajv);
for (const format of NOOP_FORMATS) ajv.addFormat(format, true);
for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['string', 'object', 'array', 'number', 'boolean', 'null'] });
// One defect of the spec is mended, or no page listing could ever validate: `Document` (part of
// every RevisionPageDocument through `allOf`) is a oneOf of {markdown}, {document} and an "Empty"
// alternative `{properties: {}, additionalProperties: false}`. Under `allOf`, additionalProperties
// sees none of the page's other properties, so a page without a body (every page of listPages and
// getCurrentRevision, which GitBook itself serves that way) matches no alternative. The mended
// "Empty" says what the alternative means: neither `markdown` nor `document`.
const definitions = Object.fromEntries(Object.entries(spec.components.schemas).map(([name, schema]) => [name, translate(schema)]));
const empty = definitions.Document.oneOf.findIndex((alternative) => alternative.title === 'Empty');
assert.ok(empty >= 0 && definitions.Document.oneOf[empty].additionalProperties === false, 'the spec\'s Document changed: revisit the fix');
definitions.Document.oneOf[empty] = { title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
ajv.addSchema({ $id: DOC_ID, definitions });

// ---- operations -------------------------------------------------------------------------------

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

function deref(object) {
    // Response objects may be `$ref: #/components/responses/X`.
    let current = object;
    while (current && current.$ref) {
        const parts = current.$ref.replace(/^#\//, '').split('/');
        current = parts.reduce((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
        if (!current) throw new Error(`unresolved $ref ${object.$ref}`);
    }
    return current;
}

/** operationId → { method, path, regex, responses } */
export const operations = new Map();
const routeTable = [];
for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const segments = path.split('/').filter(Boolean);
        const pattern = segments
            // A page path spans segments (`setup/linux`) and the official client sends its slashes as
            // they are: `{pagePath}` matches one or more segments.
            .map((s) => (s === '{pagePath}' ? '.+' : s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/');
        const literal = segments.filter((s) => !s.startsWith('{')).length;
        const entry = { operationId: op.operationId, method: method.toUpperCase(), path, regex: new RegExp(`^/${pattern}$`), literal, responses: op.responses };
        operations.set(op.operationId, entry);
        routeTable.push(entry);
    }
}
// Most literal segments first, so /orgs/{id}/members/{userId}/sso beats nothing and literal beats param.
routeTable.sort((a, b) => b.literal - a.literal);

/**
 * Bindery's extensions: operations the official client does not have. Their responses are
 * checked against the spec's component schemas the way the extension is documented.
 */
// A Git Sync run (docs/git-sync.md): what importGitRepository / exportToGitRepository started.
const GIT_RUN = {
    type: 'object',
    additionalProperties: false,
    required: ['object', 'id', 'kind', 'status', 'url', 'ref', 'createdAt', 'updatedAt', 'urls'],
    properties: {
        object: { type: 'string', enum: ['git-run'] },
        id: { type: 'string' },
        kind: { type: 'string', enum: ['import', 'export'] },
        status: { type: 'string', enum: ['pending', 'running', 'succeeded', 'failed'] },
        url: { type: 'string' },
        ref: { type: 'string' },
        projectDirectory: { type: 'string', nullable: true },
        createdAt: { $ref: '#/components/schemas/Timestamp' },
        updatedAt: { $ref: '#/components/schemas/Timestamp' },
        error: { type: 'string', nullable: true },
        revision: { type: 'string', nullable: true },
        commit: { type: 'string', nullable: true },
        standalone: { type: 'boolean' },
        warnings: { type: 'array', items: { type: 'string' } },
        urls: { type: 'object', required: ['location'], properties: { location: { type: 'string' } } },
    },
};

export const EXTENSIONS = new Map([
    ['bindery:createOrganization', {
        operationId: 'bindery:createOrganization', method: 'POST', path: '/orgs', regex: /^\/orgs$/, literal: 1,
        responses: {
            201: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Organization' } } } },
            400: { $ref: '#/components/responses/BadRequestError' },
        },
    }],
    // updateChangeRequestContent of @gitbook/api 0.202.0 (not in 0.146.0): with compat=true (the
    // default) it answers the ChangeRequest, as docs/change-requests.md describes.
    ['bindery:updateChangeRequestContent', {
        operationId: 'bindery:updateChangeRequestContent', method: 'POST',
        path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
        regex: /^\/spaces\/[^/]+\/change-requests\/[^/]+\/content$/, literal: 3,
        responses: {
            200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ChangeRequest' } } } },
            400: { $ref: '#/components/responses/BadRequestError' },
        },
    }],
    ['bindery:getGitRun', {
        operationId: 'bindery:getGitRun', method: 'GET', path: '/spaces/{spaceId}/git/runs/{runId}',
        regex: /^\/spaces\/[^/]+\/git\/runs\/[^/]+$/, literal: 3,
        responses: { 200: { content: { 'application/json': { schema: GIT_RUN } } } },
    }],
    ['bindery:listGitRuns', {
        operationId: 'bindery:listGitRuns', method: 'GET', path: '/spaces/{spaceId}/git/runs',
        regex: /^\/spaces\/[^/]+\/git\/runs$/, literal: 3,
        responses: { 200: { content: { 'application/json': { schema: {
            allOf: [{ $ref: '#/components/schemas/List' },
                { type: 'object', required: ['items'], properties: { items: { type: 'array', items: GIT_RUN } } }],
        } } } } },
    }],
]);

/** The spec operation a request is for (method + path under /v1), or undefined. */
export function operationFor(method, pathname) {
    const m = method.toUpperCase();
    for (const ext of EXTENSIONS.values()) if (ext.method === m && ext.regex.test(pathname)) return ext;
    return routeTable.find((entry) => entry.method === m && entry.regex.test(pathname));
}

const compiled = new Map();
function validatorFor(key, schema) {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(translate(schema)));
    return compiled.get(key);
}

// The generic error shape, for statuses an operation does not declare (401 everywhere, 404 often).
const errorValidator = validatorFor('#error', spec.components.schemas.Error);

function describe(body) {
    const text = JSON.stringify(body, null, 2);
    return text === undefined ? String(body) : text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

function fail(operationId, status, errors, body) {
    const lines = errors.map((e) => `  ${e.instancePath || '(root)'} ${e.message}${e.params && Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''}`);
    assert.fail(`${operationId} ${status}: response does not match the spec\n${lines.join('\n')}\nbody: ${describe(body)}`);
}

/**
 * Validates a response body against the operation's declared response for `status`.
 * 204/205 and bodiless responses: the body must be empty. Undeclared error statuses: the body
 * must be `{error: {code, message}}` with `code` equal to the HTTP status. Undeclared success
 * statuses fail.
 */
export function expectResponse(operationId, status, body) {
    const op = operations.get(operationId) ?? EXTENSIONS.get(operationId);
    if (!op) assert.fail(`unknown operation ${operationId}`);
    const declared = op.responses[String(status)] ?? (status >= 400 ? op.responses.default : undefined);
    if (status >= 400) {
        // Declared or not, Bindery's errors are {error: {code, message}} with code = status.
        if (!errorValidator(body)) fail(operationId, status, errorValidator.errors, body);
        assert.equal(body.error.code, status, `${operationId}: error.code ${body.error.code} differs from HTTP status ${status}; body: ${describe(body)}`);
        assert.ok(body.error.message.length > 0, `${operationId} ${status}: empty error message`);
    }
    if (!declared) {
        if (status >= 400) return;
        assert.fail(`${operationId}: status ${status} is not a declared response (declared: ${Object.keys(op.responses).join(', ')}); body: ${describe(body)}`);
    }
    const response = deref(declared);
    const media = response.content?.['application/json'];
    if (!media?.schema) {
        assert.ok(body === undefined || body === null || body === '',
            `${operationId} ${status}: the spec declares no body, got ${describe(body)}`);
        return;
    }
    const validate = validatorFor(`${op.operationId} ${status}`, media.schema);
    if (!validate(body)) fail(op.operationId, status, validate.errors, body);
    // The spec makes a list's `count` optional; Bindery gives it on every page of every listing (API.md's
    // lists), the total over all pages.
    if (declaresCount(media.schema)) {
        assert.ok(Number.isInteger(body.count) && body.count >= 0,
            `${op.operationId} ${status}: a listing without its count; body: ${describe(body)}`);
        assert.ok(body.count >= body.items.length,
            `${op.operationId} ${status}: count ${body.count} is less than the page's ${body.items.length} items`);
    }
}

/** Whether a response schema is the spec's List (an `items` array with a `count`), however composed. */
function declaresCount(schema) {
    const names = new Set();
    const collect = (part) => {
        const node = deref(part);
        Object.keys(node.properties ?? {}).forEach((name) => names.add(name));
        (node.allOf ?? []).forEach(collect);
    };
    collect(schema);
    return names.has('count') && names.has('items');
}
