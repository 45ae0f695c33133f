import type { Action } from '../../../core/targets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import { makeEntity, makeMaster, makeMasterItem, makeUser } from '../../../tests/support/factories.js';

/**
 * Who may do what to a master and its items. A master named by a target of
 * the spec (departamentos here) is guarded by that target; any other (a
 * custom master) by menu_maestros. The master itself (change, delete) is
 * menu_maestros work whatever its code.
 */
let t: TestApp;
type Who = 'masters admin' | 'departamentos keeper' | 'reader' | 'none' | 'admin of another tenant';
type Master = 'custom' | 'departamentos';
type Act = 'see it in the list' | 'read its items' | 'export' | 'add an item' | 'change an item' | 'delete an item' | 'change the master' | 'delete the master';
/** allowed; forbidden / not found / system record (and nothing of ours changed); hidden from the list; theirs only: the other tenant acts on its own master of that code, ours untouched. */
type Outcome = 'allowed' | 'forbidden' | 'not found' | 'system record' | 'hidden' | 'theirs only';

const sessions = {} as Record<Who, { sid: string }>;
let entityId: number;
let departamentosId: number;
const CRUD: Action[] = ['show', 'create', 'update', 'delete'];

beforeAll(async () => {
  t = await createTestApp();
  const entity = await makeEntity(t.db);
  const other = await makeEntity(t.db);
  entityId = entity.id;
  departamentosId = (await t.db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', 'departamentos').select('id').executeTakeFirstOrThrow()).id;
  const users: Array<[Who, Promise<{ email: string }>]> = [
    ['masters admin', makeUser(t.db, entity.id, { role: 'masters-admin', rules: { menu_maestros: CRUD } })],
    ['departamentos keeper', makeUser(t.db, entity.id, { role: 'keeper', rules: { departamentos: CRUD } })],
    ['reader', makeUser(t.db, entity.id, { role: 'reader', rules: { menu_maestros: ['show'], departamentos: ['show'] } })],
    ['none', makeUser(t.db, entity.id, { role: 'clerk', rules: { wf_casos: ['show'] } })],
    ['admin of another tenant', makeUser(t.db, other.id, { role: 'masters-admin', rules: { menu_maestros: CRUD, departamentos: CRUD } })],
  ];
  for (const [who, user] of users) sessions[who] = await login(t, (await user).email, 'Passw0rd1');
});
afterAll(() => t.close());

/** A master and an item of its own for each row: a new custom master, or a new item of the tenant's departamentos. */
async function fresh(master: Master) {
  if (master === 'custom') {
    const m = await makeMaster(t.db, entityId);
    return { master: m, item: await makeMasterItem(t.db, m) };
  }
  const m = await t.db.selectFrom('masters').where('id', '=', departamentosId).selectAll().executeTakeFirstOrThrow();
  return { master: m, item: await makeMasterItem(t.db, m) };
}

/** Our master and item as stored, to see that a refused request changed nothing. */
const stored = async (masterId: number, itemId: number) => ({
  master: await t.db.selectFrom('masters').where('id', '=', masterId).select(['code', 'name', 'public']).executeTakeFirst(),
  item: await t.db.selectFrom('master_items').where('id', '=', itemId).select(['code', 'name', 'active']).executeTakeFirst(),
  items: Number((await t.db.selectFrom('master_items').where('master_id', '=', masterId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
});

async function attempt(who: Who, act: Act, m: { code: string; name: string }, item: { id: number; code: string }) {
  const as = (method: string, url: string, payload?: object) => t.request({ method: method as 'GET', url, cookies: sessions[who], payload });
  const path = `/api/masters/${m.code}`;
  switch (act) {
    case 'see it in the list':
      return as('GET', `/api/masters?search=${m.code}&limit=100`);
    case 'read its items':
      return as('GET', `${path}/items?limit=100`);
    case 'export':
      return as('GET', `${path}/export`);
    case 'add an item':
      return as('POST', `${path}/items`, { code: `new-${item.code}`, name: 'Added' });
    case 'change an item':
      return as('PUT', `${path}/items/${item.id}`, { code: item.code, name: 'Changed' });
    case 'delete an item':
      return as('DELETE', `${path}/items/${item.id}`);
    case 'change the master':
      return as('PUT', path, { code: m.code, name: `${m.name} changed`, public: true });
    case 'delete the master':
      return as('DELETE', path);
  }
}

const acts: Act[] = ['see it in the list', 'read its items', 'export', 'add an item', 'change an item', 'delete an item', 'change the master', 'delete the master'];
const row = (who: Who, master: Master, outcomes: Outcome[]) => outcomes.map((o, i) => [who, master, acts[i], o] as [Who, Master, Act, Outcome]);

// Columns: see it in the list, read its items, export, add an item, change an item, delete an item, change the master, delete the master.
const table: Array<[Who, Master, Act, Outcome]> = [
  ...row('masters admin', 'custom', ['allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed']),
  ...row('masters admin', 'departamentos', ['hidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'allowed', 'system record']),
  ...row('departamentos keeper', 'custom', ['hidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden']),
  ...row('departamentos keeper', 'departamentos', ['allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'forbidden', 'forbidden']),
  ...row('reader', 'custom', ['allowed', 'allowed', 'allowed', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden']),
  ...row('reader', 'departamentos', ['allowed', 'allowed', 'allowed', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden']),
  ...row('none', 'custom', ['hidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden']),
  ...row('none', 'departamentos', ['hidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden']),
  ...row('admin of another tenant', 'custom', ['hidden', 'not found', 'not found', 'not found', 'not found', 'not found', 'not found', 'not found']),
  // Its own tenant has a departamentos master: it reads and changes that one, never ours.
  ...row('admin of another tenant', 'departamentos', ['theirs only', 'theirs only', 'theirs only', 'theirs only', 'not found', 'not found', 'theirs only', 'system record']),
];

describe('master policy', () => {
  it.each(table)('%s, %s master: %s -> %s', async (who, master, act, outcome) => {
    const { master: m, item } = await fresh(master);
    const before = await stored(m.id, item.id);
    const res = await attempt(who, act, m, item);
    const after = await stored(m.id, item.id);
    const listed = () => res.json<{ items: Array<{ code: string }> }>().items.map((i) => i.code);
    switch (outcome) {
      case 'allowed':
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, res.body).toBeLessThan(300);
        if (act === 'see it in the list') expect(listed()).toContain(m.code);
        if (act === 'read its items') expect(listed()).toContain(item.code);
        if (act === 'export') expect(res.body).toContain(item.code);
        if (act === 'add an item') expect(after.items).toBe(before.items + 1);
        if (act === 'change an item') expect(after.item?.name).toBe('Changed');
        if (act === 'delete an item') expect(after.item).toBeUndefined();
        if (act === 'change the master') expect(after.master?.name).toBe(`${m.name} changed`);
        if (act === 'delete the master') expect(after.master).toBeUndefined();
        return;
      case 'hidden':
        expect(res.statusCode).toBe(200);
        return expect(listed()).not.toContain(m.code);
      case 'theirs only':
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, res.body).toBeLessThan(300);
        // What it reads is its own (the item added carries the code the request gave).
        if (act !== 'add an item') expect(res.body).not.toContain(item.code);
        return expect(after).toEqual(before);
      default: {
        const status = { forbidden: 403, 'not found': 404, 'system record': 409 }[outcome];
        expect(res.statusCode, res.body).toBe(status);
        if (outcome === 'system record') expect(res.json<{ error: { code: string } }>().error.code).toBe('SYSTEM_RECORD');
        return expect(after).toEqual(before);
      }
    }
  });

  // The actions sent with a master, from which the web shows its buttons.
  const actions: Array<[Who, Master, string[]]> = [
    ['masters admin', 'custom', ['edit', 'delete', 'addItems', 'editItems', 'deleteItems']],
    ['departamentos keeper', 'departamentos', ['addItems', 'editItems', 'deleteItems']],
    ['reader', 'custom', []],
    ['reader', 'departamentos', []],
  ];
  it.each(actions)('%s, %s master: sent the actions %j', async (who, master, expected) => {
    const { master: m } = await fresh(master);
    const res = await t.request({ method: 'GET', url: `/api/masters/${m.code}`, cookies: sessions[who] });
    expect(res.json<{ actions: string[] }>().actions).toEqual(expected);
    const listed = await t.request({ method: 'GET', url: `/api/masters?search=${m.code}`, cookies: sessions[who] });
    expect(listed.json<{ items: Array<{ code: string; actions: string[] }> }>().items.find((x) => x.code === m.code)?.actions).toEqual(expected);
  });
});

describe('importing items', () => {
  it('adds items with the right to add them, and changes existing ones only with the right to change them', async () => {
    const adder = await makeUser(t.db, entityId, { role: 'item-adder', rules: { menu_maestros: ['show', 'create'] } });
    const sid = await login(t, adder.email, 'Passw0rd1');
    const m = await makeMaster(t.db, entityId);
    const kept = await makeMasterItem(t.db, m, { code: 'kept', name: 'Kept as it was' });
    const upload = (csv: string) =>
      t.request({ method: 'POST', url: `/api/masters/${m.code}/import`, cookies: sid, headers: { 'content-type': 'text/csv' }, payload: Buffer.from(csv) });
    const added = await upload('code,name\nnew-one,Added\n');
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<{ created: number; updated: number }>()).toMatchObject({ created: 1, updated: 0 });
    const changing = await upload('code,name\nkept,Changed by an import\nanother,Added too\n');
    expect(changing.statusCode).toBe(403);
    expect(await t.db.selectFrom('master_items').where('id', '=', kept.id).select('name').executeTakeFirstOrThrow()).toEqual({ name: 'Kept as it was' });
    expect(await t.db.selectFrom('master_items').where('master_id', '=', m.id).where('code', '=', 'another').select('id').executeTakeFirst()).toBeUndefined();
  });
});
