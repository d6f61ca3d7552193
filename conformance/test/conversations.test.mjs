// Conversations through the official client: ingest (one conversation and an array, again to update),
// the worker's processing awaited by polling (a bounded number of polls, each awaiting the server's
// answer), the listings of conversations, issues and clusters with their filters, orders and pages, the
// lookups, and the 400/403/404 answers. Every response is validated against the official schema
// (Conversation, ConversationIssue, ConversationsIssuesCluster…).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError, expectUnauthorized } from '../lib/context.mjs';
import { orgWithMembers } from '../lib/fixtures.mjs';

const ctx = useServer();
const POLLS = 200;

function thread(id, subject, text, extra = {}) {
    return {
        id, subject, parts: [
            { type: 'message', role: 'user', body: text },
            { type: 'message', role: 'team-member', body: 'Thanks, we are looking into it.' },
        ], ...extra,
    };
}

const LOGIN = 'I cannot log in to my account. The login page says my password is wrong but I reset the password twice.';
const LOGIN_AGAIN = 'Login fails for me: after I reset my password the login page still says the password is wrong.';
const EXPORT = 'The PDF export of my space fails with an error. When I click export to PDF I get an error message.';

async function processed(api, orgId, count) {
    for (let i = 0; i < POLLS; i += 1) {
        const listed = await expectOk(api.listConversations(orgId));
        if (listed.items.length === count && listed.items.every((c) => c.processedAt)) return listed;
    }
    assert.fail(`the conversations were not processed after ${POLLS} polls`);
}

describe('Conversations', () => {
    let fx;
    before(async () => {
        fx = await orgWithMembers(ctx, { count: 1, roles: ['create'] });
    });

    it('ingest, process, list and read conversations, issues and clusters', async () => {
        const api = fx.owner.api.orgs;
        const org = fx.org.id;
        await expectOk(api.ingestConversation(org, thread('login-1', 'Cannot log in', LOGIN, {
            metadata: { url: 'https://support.example.com/1', attributes: { plan: 'pro' }, createdAt: new Date().toISOString() },
        })), 204);
        await expectOk(api.ingestConversation(org, [thread('login-2', 'Login broken', LOGIN_AGAIN),
            thread('export-1', 'PDF export fails', EXPORT)]), 204);
        const listed = await processed(api, org, 3);
        assert.equal(listed.count, 3);
        const login = listed.items.find((c) => c.subject === 'Cannot log in');
        assert.equal(login.source, 'email');
        assert.equal(login.urls.source, 'https://support.example.com/1');
        const detail = await expectOk(api.getConversationById(org, login.id));
        assert.equal(detail.parts[0].body, LOGIN);
        assert.deepEqual(detail.metadata.attributes, { plan: 'pro' });
        const page = await expectOk(api.listConversations(org, { limit: 2 }));
        assert.equal(page.items.length, 2);
        const rest = await expectOk(api.listConversations(org, { limit: 2, page: page.next.page }));
        assert.equal(rest.items.length, 1);
        assert.equal((await expectOk(api.listConversations(org, { source: 'email' }))).count, 3);

        const issues = await expectOk(api.listConversationsIssues(org));
        assert.ok(issues.count >= 3);
        const loginIssue = issues.items.find((i) => i.conversation.id === login.id).issue;
        const again = await expectOk(api.getConversationIssueById(org, loginIssue.id));
        assert.deepEqual(again.issue, loginIssue);
        const ofConversation = await expectOk(api.listConversationsIssues(org, { conversation: login.id }));
        assert.ok(ofConversation.items.every((i) => i.conversation.id === login.id));
        const inCluster = await expectOk(api.listConversationsIssues(org, { cluster: loginIssue.cluster }));
        assert.ok(inCluster.items.some((i) => i.conversation.subject === 'Login broken'));

        const cluster = await expectOk(api.getConversationsIssuesCluster(org, loginIssue.cluster));
        assert.equal(cluster.stats.conversations, 2);
        assert.equal(cluster.weeklyPulse.length, 13);
        assert.equal(cluster.weeklyPulse[12], cluster.stats.issues);
        assert.deepEqual(cluster.sources, { email: cluster.stats.issues });
        const clusters = await expectOk(api.listConversationsIssuesClusters(org, { orderBy: 'issues', order: 'desc' }));
        assert.ok(clusters.count >= 2);
        assert.equal(clusters.items[0].id, cluster.id);
        const pending = await expectOk(api.listConversationsIssuesClusters(org, { status: 'pending', limit: 1 }));
        assert.equal(pending.items.length, 1);
        assert.ok(pending.next);
        await expectOk(fx.members[0].api.orgs.listConversationsIssuesClusters(org));

        // Ingesting the same conversation again updates it; it is processed again.
        await expectOk(api.ingestConversation(org, thread('export-1', 'PDF export still fails', EXPORT)), 204);
        const after = await processed(api, org, 3);
        assert.ok(after.items.some((c) => c.subject === 'PDF export still fails'));
    });

    it('refuses bad bodies, weak roles and unknown ids', async () => {
        const api = fx.owner.api.orgs;
        const org = fx.org.id;
        await expectError(api.ingestConversation(org, { id: '', parts: [] }), 400, /id/);
        await expectError(api.ingestConversation(org, { id: 'x', parts: [{ type: 'message', role: 'bot', body: 'hi' }] }), 400, /role/);
        await expectError(fx.members[0].api.orgs.ingestConversation(org, thread('m', 'Hi', LOGIN)), 403);
        await expectError(api.getConversationById(org, 'nothing'), 404);
        await expectError(api.getConversationIssueById(org, 'nothing'), 404);
        await expectError(api.getConversationsIssuesCluster(org, 'nothing'), 404);
        for (const path of ['conversations', 'conversations-issues', 'conversations-clusters']) {
            await expectUnauthorized(ctx, 'GET', `/orgs/${org}/${path}`);
        }
        await expectUnauthorized(ctx, 'POST', `/orgs/${org}/conversations`);
    });
});
