// Change request content batches beyond pages (POST CR/content, spec 0.202.0's updateChangeRequestContent,
// through lib/fixtures.mjs): a file uploaded by URL (the runner fetches a URL it serves itself; it allows
// private hosts, deployed stacks do not), single blocks reverted, an adaptive-content page condition.
// Reads go through the official client and are validated against the 0.146.0 schema.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk } from '../lib/context.mjs';
import { editChangeRequestContent, orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

function block(key, text) {
    return { object: 'block', type: 'paragraph', key, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
}

function texts(page) {
    return page.document.nodes.map((node) => [node.key, node.nodes[0].leaves[0].text]);
}

describe('change request content', () => {
    let owner;
    let space;
    let cr;
    const edit = (changes, expected) => editChangeRequestContent(ctx, owner.token, space.id, cr.id, changes, expected);

    before(async () => {
        const fx = await orgWithMembers(ctx);
        owner = fx.owner;
        space = await expectOk(owner.api.orgs.createSpace(fx.org.id, { title: 'Content batches' }), 201);
        cr = await expectOk(owner.api.spaces.createChangeRequest(space.id, { subject: 'Batches' }), 201);
    });

    it('uploads a file by URL', async () => {
        const bytes = Buffer.from('a small attachment, fetched back by URL');
        await edit([{ operation: 'insert_files', files: [{ name: 'source.txt', contentType: 'text/plain', base64: bytes.toString('base64') }] }]);
        const first = await expectOk(owner.api.spaces.listFilesInChangeRequestById(space.id, cr.id));
        const source = first.items.find((file) => file.name === 'source.txt');
        await edit([{ operation: 'insert_files', files: [{ name: 'copy.txt', url: source.downloadURL }] }]);
        const files = await expectOk(owner.api.spaces.listFilesInChangeRequestById(space.id, cr.id));
        const copy = files.items.find((file) => file.name === 'copy.txt');
        assert.deepEqual([copy.size, copy.contentType], [bytes.length, 'text/plain']);
        const fetched = await fetch(copy.downloadURL);
        assert.equal(Buffer.from(await fetched.arrayBuffer()).toString(), bytes.toString());
        await edit([{ operation: 'insert_files', files: [{ name: 'x', url: 'file:///etc/passwd' }] }], 400);
    });

    it('reverts single blocks and keeps page conditions', async () => {
        await edit([{ operation: 'insert_page', title: 'Blocks', condition: "visitor.claims.plan == 'pro'",
            document: { document: { object: 'document', data: {}, nodes: [block('a', 'A'), block('b', 'B')] } } }]);
        const pages = await expectOk(owner.api.spaces.listPagesInChangeRequest(space.id, cr.id));
        const made = pages.pages.find((p) => p.title === 'Blocks');
        assert.equal(made.condition, "visitor.claims.plan == 'pro'");
        const changed = await edit([{ operation: 'update_page', page: made.id,
            document: { document: { object: 'document', data: {}, nodes: [block('a', 'A2'), block('c', 'C')] } } }]);
        await edit([{ operation: 'update_page', page: made.id, document: { document: { object: 'document', data: {}, nodes: [block('c', 'C')] } } }]);
        await edit([{ operation: 'revert_page', page: made.id, revision: changed.revision, block: ['a'] }]);
        const page = await expectOk(owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, made.id));
        assert.deepEqual(texts(page), [['a', 'A2'], ['c', 'C']]);
        await edit([{ operation: 'revert_page', page: made.id, revision: changed.revision, block: ['nope'] }], 400);
    });
});
