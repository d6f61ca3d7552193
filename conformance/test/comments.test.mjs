// Comments, replies, reactions and commenters, on a space (…InSpace) and on a change request
// (…InChangeRequest): every operation of both variants, through the official client, each response
// validated against the spec. Pages, nodes and table cells as targets are covered in-process
// (tests/api/comments/test_comments.py: nothing writes page content through the API yet); here a page that
// does not exist is the 400 the spec's target check gives.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();

/** The eleven operations of one variant, for one caller. */
function operations(api, spaceId, changeRequestId) {
    const s = api.spaces;
    if (!changeRequestId) {
        return {
            list: (q) => s.listCommentsInSpace(spaceId, q),
            post: (d) => s.postCommentInSpace(spaceId, d),
            get: (c, q) => s.getCommentInSpace(spaceId, c, q),
            update: (c, d) => s.updateCommentInSpace(spaceId, c, d),
            remove: (c) => s.deleteCommentInSpace(spaceId, c),
            listReplies: (c, q) => s.listCommentRepliesInSpace(spaceId, c, q),
            postReply: (c, d) => s.postCommentReplyInSpace(spaceId, c, d),
            getReply: (c, r, q) => s.getCommentReplyInSpace(spaceId, c, r, q),
            updateReply: (c, r, d) => s.updateCommentReplyInSpace(spaceId, c, r, d),
            removeReply: (c, r) => s.deleteCommentReplyInSpace(spaceId, c, r),
            commenters: (q) => s.listCommentersInSpace(spaceId, q),
            path: `/spaces/${spaceId}`,
        };
    }
    const cr = changeRequestId;
    return {
        list: (q) => s.listCommentsInChangeRequest(spaceId, cr, q),
        post: (d) => s.postCommentInChangeRequest(spaceId, cr, d),
        get: (c, q) => s.getCommentInChangeRequest(spaceId, cr, c, q),
        update: (c, d) => s.updateCommentInChangeRequest(spaceId, cr, c, d),
        remove: (c) => s.deleteCommentInChangeRequest(spaceId, cr, c),
        listReplies: (c, q) => s.listCommentRepliesInChangeRequest(spaceId, cr, c, q),
        postReply: (c, d, q) => s.postCommentReplyInChangeRequest(spaceId, cr, c, d, q),
        getReply: (c, r, q) => s.getCommentReplyInChangeRequest(spaceId, cr, c, r, q),
        updateReply: (c, r, d) => s.updateCommentReplyInChangeRequest(spaceId, cr, c, r, d),
        removeReply: (c, r) => s.deleteCommentReplyInChangeRequest(spaceId, cr, c, r),
        commenters: (q) => s.listCommentersInChangeRequest(spaceId, cr, q),
        path: `/spaces/${spaceId}/change-requests/${cr}`,
    };
}

// 'change request by number': the same operations with the change request's number in the path, as
// every change-request route accepts it.
for (const variant of ['space', 'change request', 'change request by number']) {
    describe(`comments on a ${variant}`, () => {
        let fx;
        let space;
        let changeRequestId; // as the path names it: the id, or the number
        let changeRequestRealId; // the id, as responses name it
        let owner; // operations as the organization's admin
        let commenter; // a member with the comment role
        let reader; // a member with the read role
        let counter; // the target's `comments`
        before(async () => {
            fx = await orgWithMembers(ctx, { count: 2, roles: ['comment', 'read'] });
            space = await expectOk(fx.owner.api.orgs.createSpace(fx.org.id, { title: 'Discussed' }), 201);
            if (variant !== 'space') {
                const created = await expectOk(fx.owner.api.spaces.createChangeRequest(space.id, { subject: 'Edits' }), 201);
                changeRequestId = variant === 'change request' ? created.id : String(created.number);
                changeRequestRealId = created.id;
            }
            owner = operations(fx.owner.api, space.id, changeRequestId);
            commenter = operations(fx.members[0].api, space.id, changeRequestId);
            reader = operations(fx.members[1].api, space.id, changeRequestId);
            counter = async () => (changeRequestId
                ? await expectOk(fx.owner.api.spaces.getChangeRequestById(space.id, changeRequestId))
                : await expectOk(fx.owner.api.spaces.getSpaceById(space.id))).comments;
        });

        it('posts, reads and lists comments, as Markdown or as a document', async () => {
            const posted = await expectOk(commenter.post({ body: { markdown: 'Is this **right**?' } }));
            assert.equal(posted.object, 'comment');
            assert.equal(posted.status, 'open');
            assert.deepEqual(posted.body, { markdown: 'Is this **right**?' });
            assert.equal(posted.postedBy.id, fx.members[0].userId);
            assert.equal(posted.target.space, space.id);
            assert.equal(posted.target.changeRequest, changeRequestRealId);
            assert.deepEqual(posted.permissions, { view: true, edit: true, reply: true, delete: true });
            assert.deepEqual(await expectOk(commenter.get(posted.id)), posted);
            const asDocument = await expectOk(reader.get(posted.id, { format: 'document' }));
            assert.equal(asDocument.body.document.nodes[0].type, 'paragraph');
            assert.deepEqual(asDocument.permissions, { view: true, edit: false, reply: false, delete: false });
            const listed = await expectOk(reader.list({ format: 'markdown', order: 'asc', status: 'all' }));
            assert.ok(listed.items.some((c) => c.id === posted.id));
            assert.equal(await counter(), listed.items.filter((c) => c.status === 'open').length);
        });

        it('filters by status, page and authors, and pages', async () => {
            const mine = await expectOk(owner.post({ body: { markdown: 'one' } }));
            const theirs = await expectOk(commenter.post({ body: { markdown: 'two' } }));
            await expectOk(owner.update(mine.id, { resolved: true }));
            const resolved = await expectOk(owner.list({ status: 'resolved' }));
            assert.deepEqual(resolved.items.map((c) => c.id), [mine.id]);
            const byAuthor = await expectOk(owner.list({ authors: [fx.owner.userId], order: 'asc' }));
            assert.deepEqual(byAuthor.items.map((c) => c.id), [mine.id]);
            const both = await expectOk(owner.list({ authors: [fx.owner.userId, fx.members[0].userId] }));
            assert.equal(both.items[0].id, theirs.id); // newest first
            assert.deepEqual((await expectOk(owner.list({ targetPage: 'nowhere' }))).items, []);
            const first = await expectOk(owner.list({ limit: 1 }));
            assert.equal(first.items.length, 1);
            const second = await expectOk(owner.list({ limit: 1, page: first.next.page }));
            assert.notEqual(second.items[0].id, first.items[0].id);
        });

        it('resolves, reopens and reacts, keeping the counter and the reactions exact', async () => {
            const comment = await expectOk(owner.post({ body: { markdown: 'React to me' } }));
            const before_ = await counter();
            const resolved = await expectOk(commenter.update(comment.id, { resolved: true }));
            assert.equal(resolved.status, 'resolved');
            assert.equal(resolved.resolvedBy.id, fx.members[0].userId);
            assert.equal(await counter(), before_ - 1);
            const reopened = await expectOk(owner.update(comment.id, { resolved: false }));
            assert.equal(reopened.status, 'open');
            assert.equal(reopened.resolvedAt, undefined);
            assert.equal(await counter(), before_);
            await expectOk(owner.update(comment.id, { addedReactions: ['👍'] }));
            const reacted = await expectOk(commenter.update(comment.id, { addedReactions: ['👍', '👍'] }));
            assert.deepEqual(reacted.reactions.map((r) => [r.emoji, r.count, r.users.length]), [['👍', 2, 2]]);
            const taken = await expectOk(owner.update(comment.id, { removedReactions: ['👍'] }));
            assert.deepEqual(taken.reactions.map((r) => [r.emoji, r.count]), [['👍', 1]]);
            const edited = await expectOk(owner.update(comment.id, { body: { markdown: 'Edited' } }));
            assert.deepEqual(edited.body, { markdown: 'Edited' });
            assert.ok(edited.editedAt);
        });

        it('replies: post, list, read, update, delete, and the comment counts them', async () => {
            const comment = await expectOk(owner.post({ body: { markdown: 'Thread' } }));
            const reply = await expectOk(commenter.postReply(comment.id, { body: { markdown: 'First' } }));
            assert.equal(reply.object, 'comment-reply');
            await expectOk(owner.postReply(comment.id, { body: { markdown: 'Second' } }));
            const counted = await expectOk(owner.get(comment.id));
            assert.equal(counted.replies, 2);
            assert.deepEqual(counted.repliers.map((r) => r.count).sort(), [1, 1]);
            const listed = await expectOk(reader.listReplies(comment.id, { limit: 1, format: 'document' }));
            assert.equal(listed.items[0].id, reply.id);
            assert.ok(listed.next.page);
            assert.deepEqual(await expectOk(commenter.getReply(comment.id, reply.id)), reply);
            const updated = await expectOk(commenter.updateReply(comment.id, reply.id, { body: { markdown: 'Changed' }, addedReactions: ['🎉'] }));
            assert.deepEqual(updated.body, { markdown: 'Changed' });
            assert.equal(updated.reactions[0].count, 1);
            if (changeRequestId) {
                await expectOk(commenter.updateReply(comment.id, reply.id, { resolved: true }));
                assert.equal((await expectOk(owner.get(comment.id))).status, 'resolved');
            } else {
                await expectError(commenter.updateReply(comment.id, reply.id, { resolved: true }), 400, /resolved/);
            }
            await expectOk(commenter.removeReply(comment.id, reply.id), 204);
            await expectOk(commenter.removeReply(comment.id, reply.id), 204);
            assert.equal((await expectOk(owner.get(comment.id))).replies, 1);
            await expectOk(owner.remove(comment.id), 204);
            await expectOk(owner.remove(comment.id), 204);
            await expectError(owner.get(comment.id), 404, /comment/);
            await expectError(owner.listReplies(comment.id), 404, /comment/);
        });

        it('lists commenters once each, as members', async () => {
            const { items } = await expectOk(reader.commenters({ limit: 100 }));
            const ids = items.map((m) => m.id);
            assert.deepEqual(ids, [...new Set(ids)]);
            assert.ok(ids.includes(fx.owner.userId) && ids.includes(fx.members[0].userId));
            assert.ok(items.every((m) => m.object === 'member'));
            const first = await expectOk(reader.commenters({ limit: 1 }));
            assert.equal(first.items.length, 1);
            assert.ok(first.next.page);
        });

        it('refuses what the caller may not do, and bad input', async () => {
            const comment = await expectOk(commenter.post({ body: { markdown: 'Mine' } }));
            await expectError(reader.post({ body: { markdown: 'x' } }), 403, /comment role/);
            await expectError(reader.postReply(comment.id, { body: { markdown: 'x' } }), 403, /comment role/);
            await expectError(reader.update(comment.id, { addedReactions: ['👍'] }), 403, /comment role/);
            await expectError(reader.remove(comment.id), 403, /author/);
            await expectError(owner.post({ body: { markdown: 'x' }, page: 'nope' }), 400, /page/);
            await expectError(owner.post({ body: { markdown: ' ' } }), 400, /body/);
            await expectError(owner.list({ status: 'closed' }), 400, /status/);
            await expectError(owner.get('nope'), 404, /comment/);
            await expectError(owner.getReply(comment.id, 'nope'), 404, /reply/);
            await expectError(owner.updateReply(comment.id, 'nope', { body: { markdown: 'x' } }), 404, /reply/);
            await expectError(owner.postReply('nope', { body: { markdown: 'x' } }), 404, /comment/);
            await expectOk(owner.removeReply('nope', 'nope'), 204);
        });

        it('404 for outsiders, 401 without a token', async () => {
            const stranger = await ctx.createUser();
            const outsider = operations(stranger.api, space.id, changeRequestId);
            await expectError(outsider.list(), 404, /space/);
            await expectError(outsider.commenters(), 404, /space/);
            await expectError(outsider.post({ body: { markdown: 'x' } }), 404, /space/);
            await expectUnauthorized(ctx, 'GET', `${owner.path}/comments`);
            await expectUnauthorized(ctx, 'GET', `${owner.path}/commenters`);
        });
    });
}
