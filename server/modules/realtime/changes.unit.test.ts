import { describe, expect, it } from 'vitest';
import { routeChange } from './changes.js';

/** Which rooms hear of each change the database announces. */
describe('routeChange', () => {
  const base = { ids: [], c: [], u: [] };
  it('sends a case change to the tenant’s staff, the owner and the case’s rooms', () => {
    expect(routeChange({ ...base, k: 'case', e: 5, ids: [42], c: [42], u: [7] })).toEqual({
      rooms: ['staff:5', 'user:7', 'case:42'],
      event: { kind: 'case', ids: [42], caseIds: [42] },
      reviewCases: [42],
    });
  });
  it('sends a task change to its task room too, and a notification to its person only', () => {
    expect(routeChange({ ...base, k: 'task', e: 5, ids: [9], c: [42], u: [] })).toMatchObject({ rooms: ['staff:5', 'case:42', 'task:9'], reviewCases: [] });
    expect(routeChange({ ...base, k: 'notification', e: 5, ids: [3], u: [7] })).toMatchObject({ rooms: ['user:7'] });
  });
  it('sends a payment change to the tenant\'s staff and the award\'s case room, ids only', () => {
    expect(routeChange({ ...base, k: 'payment', e: 5, ids: [4], c: [9] })).toEqual({ rooms: ['staff:5', 'case:9'], event: { kind: 'payment', ids: [4], caseIds: [9] }, reviewCases: [] });
  });
  it('sends a project change to every socket of the tenant (applicants too), ids only', () => {
    expect(routeChange({ ...base, k: 'project', e: 5, ids: [2] })).toEqual({ rooms: ['tenant:5'], event: { kind: 'project', ids: [2], caseIds: [] }, reviewCases: [] });
    expect(routeChange({ ...base, k: 'project', ids: [2] })).toBeNull();
  });
  it('sends an import change to the tenant’s staff and the importer', () => {
    expect(routeChange({ ...base, k: 'import', e: 5, ids: [3], u: [7] })).toEqual({ rooms: ['staff:5', 'user:7'], event: { kind: 'import', ids: [3], caseIds: [] }, reviewCases: [] });
  });
  it('says "many" to the whole tenant', () => {
    expect(routeChange({ ...base, k: 'comment', e: 5, many: true })).toEqual({ rooms: ['tenant:5'], event: { kind: 'comment', ids: [], caseIds: [], many: true }, reviewCases: [] });
  });
  it('closes the sockets of an ended session, a changed user and a tenant whose rules changed', () => {
    expect(routeChange({ ...base, k: 'session-ended', ids: [11], u: [7] })).toEqual({ disconnect: ['session:11'] });
    expect(routeChange({ ...base, k: 'user-access', e: 5, ids: [7] })).toEqual({ disconnect: ['user:7'] });
    expect(routeChange({ ...base, k: 'acl', e: 5 })).toEqual({ disconnect: ['tenant:5'] });
  });
  it('ignores a change without a tenant', () => {
    expect(routeChange({ ...base, k: 'case', e: null, ids: [1] })).toBeNull();
  });
});
