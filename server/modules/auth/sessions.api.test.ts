import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeUser } from '../../../tests/support/factories.js';
import { hashToken } from './tokens.js';
import { createSession, liveSessionTokens } from './sessions.js';

/**
 * The realtime instance's minute recheck of its sockets (realtime/server.ts)
 * asks which of their sessions still stand, all at once: idle, past its
 * hours, a blocked or locked user, a closed tenant or an unknown token are
 * not; reading does not keep a session alive.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('liveSessionTokens', () => {
  it('keeps only the sessions that stand, in one call, without touching them', async () => {
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

    const answer = await liveSessionTokens(t.db, [live, idle, old, ...others, 'x'.repeat(43), 'short']);
    expect([...answer]).toEqual([live]);
    const after = await t.db.selectFrom('sessions').where('token_hash', '=', hashToken(live)).select('last_seen_at').executeTakeFirstOrThrow();
    expect(after.last_seen_at).toEqual(seen.last_seen_at);
    expect(await liveSessionTokens(t.db, [])).toEqual(new Set());
  });
});
