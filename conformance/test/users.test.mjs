// Users: GET /user, GET /users/{userId}.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, expectOk, expectError } from '../lib/context.mjs';

const ctx = useServer();

describe('users', () => {
    it('GET /user returns the authenticated user, email included', async () => {
        const ada = await ctx.createUser({ name: 'Ada Lovelace' });
        const me = await expectOk(ada.api.user.getAuthenticatedUser());
        assert.equal(me.id, ada.userId);
        assert.equal(me.displayName, 'Ada Lovelace');
        assert.equal(me.email, ada.email);
        assert.equal(me.urls.location, `${ctx.url}/users/${ada.userId}`);
    });

    it('GET /user for the bootstrap admin', async () => {
        const me = await expectOk(ctx.api.user.getAuthenticatedUser());
        assert.equal(me.object, 'user');
        assert.ok(me.id);
    });

    it('GET /users/{userId} returns one\'s own profile and another user\'s (without their email)', async () => {
        const ada = await ctx.createUser({ name: 'Ada' });
        const bob = await ctx.createUser({ name: 'Bob' });
        const self = await expectOk(ada.api.users.getUserById(ada.userId));
        assert.equal(self.id, ada.userId);
        assert.equal(self.email, ada.email);
        const other = await expectOk(ada.api.users.getUserById(bob.userId));
        assert.equal(other.id, bob.userId);
        assert.equal(other.displayName, 'Bob');
        assert.equal(other.email, undefined, 'another user\'s email must not be disclosed');
    });

    it('GET /users/{userId} for an unknown user → 404', async () => {
        await expectError(ctx.api.users.getUserById('no-such-user-0000'), 404);
    });
});
