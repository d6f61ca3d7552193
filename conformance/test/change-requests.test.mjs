// Change requests through the official client: create → edit → request review → approve → merge; update
// when outdated; conflicts answer result "conflicts" and change nothing; merge rules and roles. Content
// is written with POST CR/content (updateChangeRequestContent of spec 0.202.0), which the 0.146.0 client and spec do not
// have: that call is a plain fetch whose answer is validated as Bindery's extension
// `bindery:updateChangeRequestContent` (lib/schema.mjs: a ChangeRequest with compat=true, the default). Pages are read one by one (not listPages: see content.test.mjs).
// Not here: getChangeRequestChanges of an edited page (the spec's `page_edited.attributes` is a oneOf of
// three schemas that all accept `{title, document}`, so no answer can match exactly one; tested in
// tests/api/change_requests/test_change_request_merges.py).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError } from '../lib/context.mjs';
import { editChangeRequestContent, orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

/** POST CR/content with a batch of changes; returns the change request. */
const editContent = (token, spaceId, crId, changes, expected = 200) =>
    editChangeRequestContent(ctx, token, spaceId, crId, changes, expected);

describe('change requests', () => {
    let fx;
    let owner;
    let editor;
    let reviewer;
    let space;
    let intro;

    before(async () => {
        fx = await orgWithMembers(ctx, { count: 2, roles: ['edit', 'review'] });
        [owner, editor, reviewer] = [fx.owner, fx.members[0], fx.members[1]];
        space = await expectOk(owner.api.orgs.createSpace(fx.org.id, { title: 'Reviewed' }), 201);
        // Seed the space through a first change request, merged by its admin.
        const seed = await expectOk(owner.api.spaces.createChangeRequest(space.id, { subject: 'Seed' }), 201);
        await editContent(owner.token, space.id, seed.id, [
            { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.' } },
            { operation: 'insert_page', title: 'Outro', document: { markdown: 'Bye.' } },
        ]);
        await expectOk(owner.api.spaces.mergeChangeRequest(space.id, seed.id));
        intro = await expectOk(owner.api.spaces.getPageByPath(space.id, 'intro'));
    });

    it('create → edit → request review → approve → merge', async () => {
        const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.userId] }] };
        await expectOk(owner.api.spaces.updateSpaceById(space.id, { mergeRules: rules }));
        try {
            await reviewedMerge();
        } finally {
            await expectOk(owner.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'inherit' } }));
        }
    });

    async function reviewedMerge() {
        const cr = await expectOk(editor.api.spaces.createChangeRequest(space.id, { subject: 'Polish intro' }), 201);
        assert.equal(cr.status, 'open');
        assert.equal(cr.revision, cr.revisionInitial);
        const edited = await editContent(editor.token, space.id, cr.id, [
            { operation: 'update_page', page: intro.id, title: 'Introduction', document: { markdown: 'Hello, world.' } },
        ]);
        assert.notEqual(edited.revision, cr.revision);
        const read = await expectOk(editor.api.spaces.getPageInChangeRequestById(space.id, cr.id, intro.id));
        assert.equal(read.title, 'Introduction');

        const requested = await expectOk(editor.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.userId] }));
        assert.deepEqual(requested.users.map((r) => r.user.id), [reviewer.userId]);
        const pending = await expectOk(editor.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id));
        assert.deepEqual(pending.items.map((r) => r.user.id), [reviewer.userId]);

        await expectError(owner.api.spaces.mergeChangeRequest(space.id, cr.id), 403, /require_specific_reviewers/);
        await expectError(editor.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }), 403, /review role/);
        const review = await expectOk(reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, {
            status: 'approved', comment: { markdown: 'Reads well.' },
        }), 201);
        assert.equal(review.status, 'approved');
        assert.equal(review.comment.body.markdown.trim(), 'Reads well.');
        const reviews = await expectOk(editor.api.spaces.getReviewsByChangeRequestId(space.id, cr.id));
        assert.deepEqual(reviews.items.map((r) => [r.id, r.outdated, r.comment?.id]), [[review.id, false, review.comment.id]]);
        // The review's comment is one of the change request's comments.
        const comments = await expectOk(editor.api.spaces.listCommentsInChangeRequest(space.id, cr.id));
        assert.deepEqual(comments.items.map((c) => c.id), [review.comment.id]);

        await expectError(editor.api.spaces.mergeChangeRequest(space.id, cr.id), 403, /review role/);
        const merged = await expectOk(reviewer.api.spaces.mergeChangeRequest(space.id, cr.id));
        assert.equal(merged.result, 'merge');
        const after = await expectOk(owner.api.spaces.getChangeRequestById(space.id, cr.id));
        assert.deepEqual([after.status, after.revisionMerged, after.mergedBy?.id], ['merged', merged.revision, reviewer.userId]);
        const page = await expectOk(owner.api.spaces.getPageById(space.id, intro.id));
        assert.equal(page.title, 'Introduction');
        const spaceNow = await expectOk(owner.api.spaces.getSpaceById(space.id));
        assert.equal(spaceNow.revision, merged.revision);
        // The merge made the spec's `merge` revision, naming the change request merged.
        const revision = await expectOk(owner.api.spaces.getRevisionById(space.id, merged.revision));
        assert.deepEqual([revision.type, revision.mergedFrom?.id, revision.mergedFrom?.status], ['merge', cr.id, 'merged']);
        const listed = await expectOk(owner.api.spaces.listChangeRequestsForSpace(space.id, { status: 'merged' }));
        assert.ok(listed.items.some((item) => item.id === cr.id));
    }

    it('update when outdated, then conflicts answer result "conflicts" and change nothing', async () => {
        const other = await expectOk(owner.api.spaces.createChangeRequest(space.id, { subject: 'Outro' }), 201);
        const rival = await expectOk(owner.api.spaces.createChangeRequest(space.id, { subject: 'Rival' }), 201);
        const first = await expectOk(owner.api.spaces.createChangeRequest(space.id, { subject: 'First' }), 201);
        await editContent(owner.token, space.id, other.id, [{ operation: 'insert_page', title: 'Appendix', document: {} }]);
        await editContent(owner.token, space.id, rival.id, [{ operation: 'update_page', page: intro.id, title: 'Rival title' }]);
        await editContent(owner.token, space.id, first.id, [{ operation: 'update_page', page: intro.id, title: 'First title' }]);
        await expectOk(owner.api.spaces.mergeChangeRequest(space.id, first.id));

        const outdated = await expectOk(owner.api.spaces.getChangeRequestById(space.id, other.id));
        assert.equal(outdated.outdated, true);
        const updated = await expectOk(owner.api.spaces.updateChangeRequest(space.id, other.id));
        assert.equal(updated.result, 'update');
        const fresh = await expectOk(owner.api.spaces.getChangeRequestById(space.id, other.id));
        assert.deepEqual([fresh.outdated, fresh.revision], [false, updated.revision]);
        const inOther = await expectOk(owner.api.spaces.getPageInChangeRequestById(space.id, other.id, intro.id));
        assert.equal(inOther.title, 'First title');

        const before = await expectOk(owner.api.spaces.getSpaceById(space.id));
        const rivalBefore = await expectOk(owner.api.spaces.getChangeRequestById(space.id, rival.id));
        const merged = await expectOk(owner.api.spaces.mergeChangeRequest(space.id, rival.id));
        assert.deepEqual(merged, { revision: rivalBefore.revision, result: 'conflicts' });
        const updatedRival = await expectOk(owner.api.spaces.updateChangeRequest(space.id, rival.id));
        assert.deepEqual(updatedRival, { revision: rivalBefore.revision, result: 'conflicts' });
        const unchanged = await expectOk(owner.api.spaces.getSpaceById(space.id));
        assert.equal(unchanged.revision, before.revision);
        const rivalNow = await expectOk(owner.api.spaces.getChangeRequestById(space.id, rival.id));
        assert.deepEqual([rivalNow.status, rivalNow.revision], ['open', rivalBefore.revision]);
    });

    it('status moves keep the space counters, listings filter, strangers see nothing', async () => {
        const cr = await expectOk(editor.api.spaces.createChangeRequest(space.id, {}), 201);
        const before = await expectOk(owner.api.spaces.getSpaceById(space.id));
        await expectOk(editor.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'draft' }));
        const drafted = await expectOk(owner.api.spaces.getSpaceById(space.id));
        assert.deepEqual([drafted.changeRequestsOpen, drafted.changeRequestsDraft],
            [before.changeRequestsOpen - 1, before.changeRequestsDraft + 1]);
        await expectError(editor.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'merged' }), 400, /status/);
        const mine = await expectOk(owner.api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft', creator: editor.userId }));
        assert.deepEqual(mine.items.map((item) => item.id), [cr.id]);
        const inOrg = await expectOk(owner.api.orgs.listChangeRequestsForOrganization(fx.org.id, { status: 'draft' }));
        assert.ok(inOrg.items.some((item) => item.id === cr.id));
        const byNumber = await expectOk(owner.api.spaces.getChangeRequestById(space.id, String(cr.number)));
        assert.equal(byNumber.id, cr.id);
        const stranger = await ctx.createUser();
        await expectError(stranger.api.spaces.getChangeRequestById(space.id, cr.id), 404);
        await expectError(stranger.api.orgs.listChangeRequestsForOrganization(fx.org.id), 404);
    });
});
