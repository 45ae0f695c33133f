import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';
import { hashToken } from './tokens.js';
import { createSession, sweepEndedSessions } from './sessions.js';

/**
 * The `session-sweep` job ends, once a minute, the sessions that ended
 * without a word (idle, past their hours, a blocked or locked user, a closed
 * tenant); each delete tells every instance to close the session's sockets.
 * A live session is left as it was.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('sweepEndedSessions', () => {
  it('deletes the sessions that ended and leaves the live one untouched', async () => {
    const entity = await makeEntity(t.db);
    const closed = await makeEntity(t.db);
    const person = await makeUser(t.db, entity.id);
    const blocked = await makeUser(t.db, entity.id, { active: false });
    const locked = await makeUser(t.db, entity.id, { locked: true });
    const elsewhere = await makeUser(t.db, closed.id);
    await t.db.updateTable('entities').set({ active: false }).where('id', '=', closed.id).execute();
    const live = await createSession(t.db, person.id, null, 3600);
    const idle = await createSession(t.db, person.id, null, 60);
    await t.db.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - 120_000) }).where('token_hash', '=', hashToken(idle)).execute();
    const old = await createSession(t.db, person.id, null, 3600);
    await t.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hashToken(old)).execute();
    const others = [await createSession(t.db, blocked.id, null, 3600), await createSession(t.db, locked.id, null, 3600), await createSession(t.db, elsewhere.id, null, 3600)];
    const seen = await t.db.selectFrom('sessions').where('token_hash', '=', hashToken(live)).select('last_seen_at').executeTakeFirstOrThrow();

    const hashes = [live, idle, old, ...others].map(hashToken);
    expect(await sweepEndedSessions(t.db)).toBeGreaterThanOrEqual(5);
    const left = await t.db.selectFrom('sessions').where('token_hash', 'in', hashes).select('token_hash').execute();
    expect(left.map((r) => r.token_hash)).toEqual([hashToken(live)]);
    const after = await t.db.selectFrom('sessions').where('token_hash', '=', hashToken(live)).select('last_seen_at').executeTakeFirstOrThrow();
    expect(after.last_seen_at).toEqual(seen.last_seen_at);
  });
});
