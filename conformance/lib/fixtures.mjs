// Set-up shared by the test files: organizations (through Bindery's POST /orgs extension) and
// members (users who join through the organization's verified email domain).
import assert from 'node:assert/strict';
import { expectOk, unique } from './context.mjs';
import { expectResponse } from './schema.mjs';

/** POST /orgs (not in the official client): asserts 201 and returns the organization. */
export async function createOrg(ctx, token, body) {
    const res = await ctx.raw('POST', '/orgs', { token, body });
    assert.equal(res.status, 201, `POST /orgs ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
}

/**
 * A fresh admin, their organization (with its own email domain) and `count` members who joined
 * by that domain, each then given `roles[i]` (default: the org's default role, read).
 * Returns { owner, org, domain, members: [user…] } where users are ctx.createUser() results.
 */
export async function orgWithMembers(ctx, { count = 0, roles = [], title = 'Team Org' } = {}) {
    const domain = `${unique('org')}.example`;
    // Users are made in parallel (one admin-CLI process each); they join one after the other, so
    // their join order is members' order.
    const [owner, ...members] = await Promise.all([
        ctx.createUser({ name: unique('Owner ') }),
        ...Array.from({ length: count }, (_, i) => ctx.createUser({ name: unique(`Member${i} `), email: `${unique('m')}@${domain}` })),
    ]);
    const org = await createOrg(ctx, owner.token, { title, emailDomains: [domain] });
    for (const [i, user] of members.entries()) {
        await expectOk(user.api.orgs.joinOrganization(org.id), 204);
        if (roles[i] !== undefined) {
            await expectOk(owner.api.orgs.updateMemberInOrganizationById(org.id, user.userId, { role: roles[i] }));
        }
    }
    return { owner, org, domain, members };
}

/** A one-paragraph rich-text document. */
export function paragraph(text) {
    return {
        object: 'document', data: { schemaVersion: 1 },
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
    };
}

/** Walks every page of a client list call made with `limit`; returns { pages, items }. */
export async function walk(call, limit, maxPages = 20) {
    const pages = [];
    let page;
    do {
        const data = await expectOk(call({ limit, page }));
        pages.push(data);
        assert.ok(data.items.length <= limit, `a page of ${data.items.length} items for limit=${limit}`);
        page = data.next?.page;
        assert.ok(pages.length <= maxPages, `more than ${maxPages} pages`);
    } while (page);
    return { pages, items: pages.flatMap((p) => p.items) };
}

/**
 * POST CR/content (updateChangeRequestContent of spec 0.202.0, which the 0.146.0 client lacks) with a
 * batch of changes: a plain fetch, its answer validated as Bindery's extension
 * `bindery:updateChangeRequestContent` (a ChangeRequest: compat=true, the default). Returns the body.
 */
export async function editChangeRequestContent(ctx, token, spaceId, crId, changes, expected = 200) {
    const response = await fetch(`${ctx.url}/spaces/${spaceId}/change-requests/${crId}/content`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ changes }),
    });
    const body = await response.json();
    assert.equal(response.status, expected, JSON.stringify(body));
    expectResponse('bindery:updateChangeRequestContent', response.status, body);
    return body;
}
