import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangedEvent, JoinAck, PresenceEvent } from '../../../core/realtime.js';
import { SOCKET_RATE } from '../../../core/realtime.js';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeCase, makeEntity, makeFile, makeMasterItem, makeProject, makePublishedProtocol, makeUser } from '../../../tests/support/factories.js';

/**
 * The realtime module against a listening app: who may connect and join,
 * what each socket hears when the database changes, presence and the
 * document review room, and refusals of forged, malformed and flooding
 * sockets. The tenant and its people are made here with the factories.
 */
let t: TestApp;
let entityId: number;
let otherEntityId: number;
let staff: { sid: string };
let staff2: { sid: string };
let applicant: { sid: string };
let otherApplicant: { sid: string };
let foreignStaff: { sid: string };
let staffId: number;
let staff2Id: number;
let applicantId: number;
let protocol: Awaited<ReturnType<typeof makePublishedProtocol>>;
let projectId: number;
let theirs: number;
let watched: number;
let caseFile: string;
let strayFile: string;

const STAFF = { wf_casos: ['show', 'update'], admin_cases: ['show', 'update'], wf_tareas: ['show'], wf_casos_participantes: ['update'] } as const;
const APPLICANT = { wf_casos: ['show', 'create'], borradores: ['show', 'create', 'create_drafts'] } as const;

const sockets: Socket[] = [];
function open(who: { sid: string } | null, extraHeaders: Record<string, string> = {}): Socket {
  const s = connect(t.url as string, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { ...(who ? { cookie: `sid=${who.sid}` } : {}), ...extraHeaders },
  });
  sockets.push(s);
  return s;
}
const connected = (s: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (s.connected) return resolve();
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
const refused = (s: Socket) => new Promise<string>((resolve) => s.once('connect_error', (e) => resolve(e.message)));
const emit = <T>(s: Socket, event: string, payload: unknown) => s.timeout(3000).emitWithAck(event, payload) as Promise<T>;
/** The next event of that name, or null when none comes within `ms`. */
const next = <T>(s: Socket, event: string, ms = 2000, match: (e: T) => boolean = () => true) =>
  new Promise<T | null>((resolve) => {
    const timer = setTimeout(() => {
      s.off(event, on);
      resolve(null);
    }, ms);
    const on = (e: T) => {
      if (!match(e)) return;
      clearTimeout(timer);
      s.off(event, on);
      resolve(e);
    };
    s.on(event, on);
  });
const disconnected = (s: Socket, ms = 3000) =>
  new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    s.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

beforeAll(async () => {
  t = await createTestApp({ realtime: true });
  entityId = (await makeEntity(t.db)).id;
  otherEntityId = (await makeEntity(t.db)).id;
  projectId = (await makeProject(t.db, { entity_id: entityId })).id;
  protocol = await makePublishedProtocol(t.db, entityId);
  // One after another: the first of each role makes the role.
  const a = await makeUser(t.db, entityId, { role: 'coordinator', rules: STAFF as never, password: 'Demo12345', name: 'Carla Staff' });
  const b = await makeUser(t.db, entityId, { role: 'coordinator', password: 'Demo12345', name: 'Bruno Staff' });
  const c = await makeUser(t.db, entityId, { role: 'applicant', rules: APPLICANT as never, password: 'Demo12345', name: 'Ana Applicant' });
  const d = await makeUser(t.db, entityId, { role: 'applicant', password: 'Demo12345', name: 'Otto Applicant' });
  const e = await makeUser(t.db, otherEntityId, { role: 'coordinator', rules: STAFF as never, password: 'Demo12345', name: 'Fiona Foreign' });
  staffId = a.id;
  staff2Id = b.id;
  applicantId = c.id;
  [staff, staff2, applicant, otherApplicant, foreignStaff] = await Promise.all([a, b, c, d, e].map((u) => login(t, u.email)));
  theirs = (await makeCase(t.db, protocol, { ownerId: applicantId, projectId, state: 'PENDING' })).id;
  // A room of its own for the presence test: the sockets of earlier tests in `theirs` may still be leaving it.
  watched = (await makeCase(t.db, protocol, { ownerId: applicantId, projectId, state: 'PENDING' })).id;
  caseFile = (await makeFile(t.db, entityId, staffId)).id;
  // makeEntity gives the tenant its system masters, the checklist among them.
  const checklist = await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'definiciones').select(['id', 'entity_id']).executeTakeFirstOrThrow();
  await makeMasterItem(t.db, checklist, { code: 'lease', name: 'Lease (all pages)' });
  strayFile = (await makeFile(t.db, entityId, staffId)).id;
  await t.db
    .updateTable('cases')
    .set({ data: sql`jsonb_build_object('proof', jsonb_build_array(jsonb_build_object('id', ${caseFile}::text, 'name', 'lease.pdf')))` })
    .where('id', '=', theirs)
    .execute();
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(() => t.close());

describe('connecting', () => {
  it('refuses a socket without a session, with an unknown one, or from another site', async () => {
    expect(await refused(open(null))).toBe('UNAUTHORIZED');
    expect(await refused(open({ sid: 'x'.repeat(43) }))).toBe('UNAUTHORIZED');
    const foreign = open(staff, { origin: 'https://evil.example' });
    await expect(connected(foreign)).rejects.toThrow();
  });

  it('accepts a signed-in person, also from the app’s own origin', async () => {
    await connected(open(staff, { origin: new URL(t.url as string).origin }));
  });
});

describe('joining rooms', () => {
  it('lets staff and the owner join a case, and no one else', async () => {
    const [s, own, other, foreign] = [open(staff), open(applicant), open(otherApplicant), open(foreignStaff)];
    await Promise.all([s, own, other, foreign].map(connected));
    expect((await emit<JoinAck>(s, 'join', { kind: 'case', id: theirs })).ok).toBe(true);
    expect((await emit<JoinAck>(own, 'join', { kind: 'case', id: theirs })).ok).toBe(true);
    expect(await emit<JoinAck>(other, 'join', { kind: 'case', id: theirs })).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await emit<JoinAck>(foreign, 'join', { kind: 'case', id: theirs })).toEqual({ ok: false, code: 'NOT_FOUND' });
    // The review room is staff work.
    expect(await emit<JoinAck>(own, 'join', { kind: 'review', id: theirs })).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect((await emit<JoinAck>(s, 'join', { kind: 'review', id: theirs })).ok).toBe(true);
  });

  it('refuses malformed joins without answering anything else', async () => {
    const s = open(staff);
    await connected(s);
    for (const bad of [null, 'case:1', { kind: 'case' }, { kind: 'tenant', id: entityId }, { kind: 'case', id: -1 }, { kind: 'case', id: 1, extra: true }, { kind: 'case', id: 2 ** 60 }]) {
      expect(await emit(s, 'join', bad)).toEqual({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(s.connected).toBe(true);
  });

  it('shows who has the case open, and who left', async () => {
    const a = open(staff);
    const b = open(staff2);
    await Promise.all([connected(a), connected(b)]);
    expect(await emit<JoinAck>(a, 'join', { kind: 'case', id: watched })).toMatchObject({ ok: true, users: [{ id: staffId, name: 'Carla Staff' }] });
    // A presence event of the previous test's sockets in this room may still arrive late (across instances through
    // the adapter): wait for the one that has Bruno in it.
    const seen = next<PresenceEvent>(a, 'presence', 2000, (p) => p.users.some((u) => u.id === staff2Id));
    const joined = await emit<JoinAck>(b, 'join', { kind: 'case', id: watched });
    expect(joined).toMatchObject({ ok: true, users: [{ name: 'Bruno Staff' }, { name: 'Carla Staff' }] });
    expect((await seen)?.users.map((u) => u.id).sort()).toEqual([staffId, staff2Id].sort());
    const left = next<PresenceEvent>(a, 'presence', 2000, (p) => !p.users.some((u) => u.id === staff2Id));
    b.disconnect();
    expect((await left)?.users).toEqual([{ id: staffId, name: 'Carla Staff' }]);
  });
});

describe('hearing of changes', () => {
  it('tells staff and the owner that a case changed, with ids only, and not another applicant', async () => {
    const [s, own, other] = [open(staff), open(applicant), open(otherApplicant)];
    await Promise.all([s, own, other].map(connected));
    // Any writer is heard: here a statement outside the API.
    const heard = [s, own, other].map((x) => next<ChangedEvent>(x, 'changed', 1500, (e) => e.kind === 'case'));
    await t.db.updateTable('cases').set({ updated_at: new Date() }).where('id', '=', theirs).execute();
    const [toStaff, toOwner, toOther] = await Promise.all(heard);
    expect(toStaff).toEqual({ kind: 'case', ids: [theirs], caseIds: [theirs] });
    expect(toOwner).toEqual({ kind: 'case', ids: [theirs], caseIds: [theirs] });
    expect(toOther).toBeNull();
  });

  it('tells staff and the people concerned when a case’s participants change through the API', async () => {
    const [s, other] = [open(staff2), open(otherApplicant)];
    await Promise.all([s, other].map(connected));
    const heard = next<ChangedEvent>(s, 'changed', 1500, (e) => e.kind === 'case');
    const notHeard = next<ChangedEvent>(other, 'changed', 800);
    const res = await t.request({ method: 'PUT', url: `/api/cases/${theirs}/participants`, cookies: staff, payload: { userIds: [staff2Id] } });
    expect(res.statusCode).toBe(200);
    expect(await heard).toEqual({ kind: 'case', ids: [theirs], caseIds: [theirs] });
    expect(await notHeard).toBeNull();
  });

  it('tells staff that an import advanced (any writer: here a statement outside the API)', async () => {
    const s = open(staff);
    await connected(s);
    const heard = next<ChangedEvent>(s, 'changed', 1500, (e) => e.kind === 'import');
    const imp = await t.db
      .insertInto('case_imports')
      .values({ entity_id: entityId, user_id: staffId, protocol_id: protocol.id, file_name: 'a.csv', kind: 'csv', header: JSON.stringify(['ref']), total: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await heard).toEqual({ kind: 'import', ids: [Number(imp.id)], caseIds: [] });
  });

  it('says nothing of a transaction that rolled back', async () => {
    const s = open(staff);
    await connected(s);
    const heard = next<ChangedEvent>(s, 'changed', 800);
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('cases').set({ data: '{}' }).where('id', '=', theirs).execute();
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await heard).toBeNull();
  });

  it('says "many" for a statement touching more than a hundred cases, to the tenant only', async () => {
    const s = open(staff);
    const foreign = open(foreignStaff);
    await Promise.all([connected(s), connected(foreign)]);
    const heard = next<ChangedEvent>(s, 'changed', 2000, (e) => e.kind === 'case');
    const notHeard = next<ChangedEvent>(foreign, 'changed', 1000);
    await t.db
      .insertInto('cases')
      .values(
        Array.from({ length: 101 }, () => ({
          entity_id: entityId, project_id: projectId, protocol_id: protocol.id, protocol_version_id: protocol.versionId, form_version_id: protocol.formVersionId,
          owner_id: applicantId, case_type: protocol.case_type, state: 'DRAFT' as const, data: '{}',
        })),
      )
      .execute();
    expect(await heard).toEqual({ kind: 'case', ids: [], caseIds: [], many: true });
    expect(await notHeard).toBeNull();
  });
});

describe('when the database drops the listening connection', () => {
  it('listens again and tells every socket to refetch what it may have missed, then hears changes as before', async () => {
    const s = open(staff);
    await connected(s);
    const resync = next(s, 'resync', 8000);
    const killed = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'LISTEN casebook_rt%'`.execute(t.db);
    expect(killed.rows[0].n).toBe(1);
    expect(await resync).not.toBeNull();
    const heard = next<ChangedEvent>(s, 'changed', 2000, (e) => e.kind === 'case');
    await t.db.updateTable('cases').set({ updated_at: new Date() }).where('id', '=', theirs).execute();
    expect(await heard).toMatchObject({ kind: 'case', ids: [theirs] });
  });
});

describe('losing access closes the socket at once', () => {
  it('on logout', async () => {
    const who = await login(t, (await makeUser(t.db, entityId, { role: 'coordinator', rules: STAFF as never, password: 'Demo12345' })).email);
    const s = open(who);
    await connected(s);
    const gone = disconnected(s);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', cookies: who })).statusCode).toBeLessThan(300);
    expect(await gone).toBe('io server disconnect');
  });

  it('when the user is blocked', async () => {
    const u = await makeUser(t.db, entityId, { role: 'coordinator', rules: STAFF as never, password: 'Demo12345' });
    const s = open(await login(t, u.email));
    await connected(s);
    const gone = disconnected(s);
    await t.db.updateTable('users').set({ active: false }).where('id', '=', u.id).execute();
    expect(await gone).toBe('io server disconnect');
  });

  it('when the tenant’s rules change (the socket must reconnect and be authorised again)', async () => {
    const s = open(applicant);
    const foreign = open(foreignStaff);
    await Promise.all([connected(s), connected(foreign)]);
    const gone = disconnected(s);
    const stays = disconnected(foreign, 800);
    await t.db.updateTable('entities').set({ acl_version: sql`acl_version + 1` }).where('id', '=', entityId).execute();
    expect(await gone).toBe('io server disconnect');
    expect(await stays).toBeNull();
  });
});

describe('the document review room', () => {
  it('shows a document of the case to everyone in the room, and a late joiner sees it too', async () => {
    const a = open(staff);
    const b = open(staff2);
    await Promise.all([connected(a), connected(b)]);
    await emit(a, 'join', { kind: 'review', id: theirs });
    await emit(b, 'join', { kind: 'review', id: theirs });
    const shown = next<{ fileId: string; by: { id: number } }>(b, 'show_doc');
    expect(await emit(a, 'show_doc', { caseId: theirs, fileId: caseFile })).toEqual({ ok: true });
    expect(await shown).toMatchObject({ caseId: theirs, fileId: caseFile, by: { id: staffId } });

    const late = open(staff2);
    await connected(late);
    expect(await emit<JoinAck>(late, 'join', { kind: 'review', id: theirs })).toMatchObject({ ok: true, shown: { fileId: caseFile, by: { id: staffId } } });

    const cancelled = next(b, 'cancel_show_doc');
    expect(await emit(a, 'cancel_show_doc', { caseId: theirs })).toEqual({ ok: true });
    expect(await cancelled).toMatchObject({ caseId: theirs });
    const refreshed = next(b, 'refresh_page');
    expect(await emit(a, 'refresh_page', { caseId: theirs })).toEqual({ ok: true });
    expect(await refreshed).toMatchObject({ caseId: theirs, by: { id: staffId } });
  });

  it('accepts a document: the room hears it, the checklist changes, and an unknown document is refused with nothing stored', async () => {
    const a = open(staff);
    const b = open(staff2);
    await Promise.all([connected(a), connected(b)]);
    await emit(a, 'join', { kind: 'review', id: theirs });
    await emit(b, 'join', { kind: 'review', id: theirs });
    const accepted = next(b, 'accept_doc');
    const checklistChanged = next<ChangedEvent>(b, 'changed', 2000, (e) => e.kind === 'checklist');
    expect(await emit(a, 'accept_doc', { caseId: theirs, code: 'lease', fileId: caseFile })).toEqual({ ok: true });
    expect(await accepted).toMatchObject({ caseId: theirs, code: 'lease', fileId: caseFile, by: { id: staffId } });
    expect(await checklistChanged).toMatchObject({ kind: 'checklist', caseIds: [theirs] });
    const marks = () => t.db.selectFrom('case_document_marks').where('case_id', '=', theirs).select(['code', 'mark', 'file_id']).execute();
    expect(await marks()).toEqual([{ code: 'lease', mark: 'accepted', file_id: caseFile }]);
    expect(await emit(a, 'accept_doc', { caseId: theirs, code: 'no-such-document' })).toEqual({ ok: false, code: 'BAD_REQUEST' });
    expect(await emit(a, 'accept_doc', { caseId: theirs, code: 'lease', fileId: strayFile })).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await marks()).toHaveLength(1);
  });

  it('refuses to show a file that is not the case’s, and events for a room the socket has not joined', async () => {
    const a = open(staff);
    await connected(a);
    expect(await emit(a, 'show_doc', { caseId: theirs, fileId: caseFile })).toEqual({ ok: false, code: 'FORBIDDEN' });
    expect(await emit(a, 'refresh_page', { caseId: theirs })).toEqual({ ok: false, code: 'FORBIDDEN' });
    await emit(a, 'join', { kind: 'review', id: theirs });
    expect(await emit(a, 'show_doc', { caseId: theirs, fileId: strayFile })).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await emit(a, 'show_doc', { caseId: theirs, fileId: '<script>' })).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await emit(a, 'show_doc', { caseId: theirs })).toEqual({ ok: false, code: 'BAD_REQUEST' });
    expect(await emit(a, 'show_doc', 'not an object')).toEqual({ ok: false, code: 'BAD_REQUEST' });
  });
});

describe('a flooding socket', () => {
  it('is refused past its budget and disconnected when it keeps on', async () => {
    const s = open(staff);
    await connected(s);
    const answers = await Promise.all(Array.from({ length: SOCKET_RATE.events + 5 }, () => emit<{ ok: boolean; code?: string }>(s, 'leave', { kind: 'case', id: 1 })));
    expect(answers.filter((a) => a.ok)).toHaveLength(SOCKET_RATE.events);
    expect(answers.filter((a) => a.code === 'RATE_LIMITED')).toHaveLength(5);
    const gone = disconnected(s);
    for (let i = 0; i < SOCKET_RATE.disconnectAfter; i++) s.emit('leave', { kind: 'case', id: 1 });
    expect(await gone).toBe('io server disconnect');
    // The server keeps serving others.
    const other = open(staff2);
    await connected(other);
    expect((await emit<JoinAck>(other, 'join', { kind: 'case', id: theirs })).ok).toBe(true);
  });
});
