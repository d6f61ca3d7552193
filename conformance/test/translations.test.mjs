// Translations and the glossary through the official client: create, list, get, PUT the instructions,
// run, delete, and the glossary's batch operations; the 400/404 answers. Every response is validated
// against the official schema. The conformance server has no translator backend configured, so a run
// ends `completed` with `lastRunError.code` BACKEND_NOT_CONFIGURED (docs/translations.md): that is
// awaited by polling a bounded number of times, each poll awaiting the server's answer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();
const POLLS = 100;
const INSTRUCTIONS = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be formal.', marks: [] }] }] }],
};

async function ran(api, orgId, id) {
    for (let i = 0; i < POLLS; i += 1) {
        const translation = await expectOk(api.getTranslation(orgId, id));
        if (translation.status === 'completed') return translation;
    }
    assert.fail(`${id} did not run after ${POLLS} polls`);
}

describe('Translations', () => {
    let fx;
    let space;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['read'] });
        space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Handbook' }), 201);
    });

    it('create, list, get, update, run, delete', async () => {
        const api = fx.owner.api.orgs;
        const created = await expectOk(api.createTranslation(fx.org.id, { source: { space: space.id, language: 'en' }, language: 'fr', instructions: INSTRUCTIONS }), 201);
        assert.equal(created.status, 'pending');
        assert.deepEqual(created.source, { space: space.id, language: 'en' });
        await expectError(api.createTranslation(fx.org.id, { source: { space: space.id, language: 'en' }, language: 'en' }), 400, /language/);
        await expectError(api.createTranslation(fx.org.id, { source: { space: 'missing', language: 'en' }, language: 'fr' }), 400, /source\.space/);
        const listed = await expectOk(api.listTranslations(fx.org.id));
        assert.deepEqual(listed.items.map((t) => t.id), [created.id]);
        assert.equal(listed.count, 1);
        const done = await ran(api, fx.org.id, created.id);
        assert.equal(done.lastRunError.code, 'BACKEND_NOT_CONFIGURED');
        assert.equal(done.result, undefined);
        const updated = await expectOk(api.updateTranslation(fx.org.id, created.id, { instructions: { object: 'document', data: {}, nodes: [] } }));
        assert.deepEqual(updated.instructions.nodes, []);
        await expectError(api.updateTranslation(fx.org.id, created.id, { instructions: 'formal' }), 400, /instructions/);
        await expectOk(api.runTranslation(fx.org.id, created.id), 204);
        const reader = fx.members[0].api.orgs;
        const seen = await expectOk(reader.getTranslation(fx.org.id, created.id));
        assert.deepEqual(seen.permissions, { view: true, edit: false });
        await expectError(reader.runTranslation(fx.org.id, created.id), 403);
        await expectOk(api.deleteTranslation(fx.org.id, created.id), 204);
        await expectOk(api.deleteTranslation(fx.org.id, created.id), 204);
        await expectError(api.getTranslation(fx.org.id, created.id), 404);
        await expectError(api.runTranslation(fx.org.id, created.id), 404);
    });

    it('the glossary: insert, update, delete in batches', async () => {
        const api = fx.owner.api.orgs;
        await expectOk(api.updateGlossaryEntries(fx.org.id, { operations: [{ type: 'insert', translations: { en: 'space', fr: 'espace' } }] }), 204);
        const listed = await expectOk(api.listGlossaryEntries(fx.org.id));
        assert.equal(listed.count, 1);
        const [entry] = listed.items;
        assert.deepEqual(entry.translations, { en: 'space', fr: 'espace' });
        assert.deepEqual(await expectOk(api.getGlossaryEntry(fx.org.id, entry.id)), entry);
        await expectOk(api.updateGlossaryEntries(fx.org.id, { operations: [{ type: 'update', id: entry.id, translations: { en: 'space', de: 'Bereich' } }] }), 204);
        assert.deepEqual((await expectOk(api.getGlossaryEntry(fx.org.id, entry.id))).translations, { en: 'space', de: 'Bereich' });
        await expectError(api.updateGlossaryEntries(fx.org.id, { operations: [{ type: 'delete', id: 'missing' }] }), 400, /operations\.0\.id/);
        await expectOk(api.updateGlossaryEntries(fx.org.id, { operations: [{ type: 'delete', id: entry.id }] }), 204);
        await expectError(api.getGlossaryEntry(fx.org.id, entry.id), 404);
    });

    it('answers 401 without a token', async () => {
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/translations`);
        await expectUnauthorized(ctx, 'GET', `/orgs/${fx.org.id}/translations-glossary`);
    });
});
