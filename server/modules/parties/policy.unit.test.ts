import { describe, expect, it } from 'vitest';
import type { Actor } from '../acl/policy.js';
import { assertMayWork, mayManageParties, partyActions, partyPageActions } from './policy.js';

/**
 * The parties' policy as a table: who manages a case's parties (staff), what
 * staff may do on a party by its state and the case's, and when a party may
 * still save and submit their side. Who reaches which row at all (staff
 * through the case, a party only their own) is the API test's.
 */
const actorWith = (rules: Record<string, string[]>): Actor => ({
  userId: 1,
  entityId: 1,
  entity: { docnumber: '1', name: 'Agency' },
  name: 'Someone',
  email: 'someone@example.test',
  role: { id: 1, code: 'custom', name: 'custom', superAdmin: false },
  rules: new Map(Object.entries(rules).map(([k, v]) => [k, new Set(v)])),
  language: 'en',
  timeZone: 'UTC',
  sessionId: 1,
  projectId: null,
  idleSeconds: 3000,
});
const applicant = actorWith({ wf_casos: ['show', 'create'] });
const reviewer = actorWith({ wf_tareas: ['show', 'accept'], wf_casos: ['show'] });
const caseAdmin = actorWith({ admin_cases: ['show'], wf_casos: ['show'] });
const NOW = new Date('2026-11-28T12:00:00Z');
const LATER = new Date('2026-12-12T12:00:00Z');
const EARLIER = new Date('2026-11-27T12:00:00Z');

describe('parties policy', () => {
  it.each([
    ['applicant (or a landlord with the applicant role)', applicant, false],
    ['reviewer', reviewer, true],
    ['case administrator', caseAdmin, true],
  ])('%s manages a case’s parties: %s', (_name, actor, allowed) => {
    expect(mayManageParties(actor)).toBe(allowed);
  });

  it.each([
    ['invited', 'PENDING', ['resend']],
    ['expired', 'PENDING', ['resend']],
    ['joined', 'PENDING', []],
    ['submitted', 'PENDING', []],
    ['invited', 'SUCCESS', []],
  ] as const)('staff on a party %s of a %s case: %j', (state, caseState, actions) => {
    expect(partyActions(reviewer, { state, caseState })).toEqual(actions);
    expect(partyActions(applicant, { state, caseState })).toEqual([]);
  });

  it.each([
    ['joined', 'PENDING', LATER, ['save', 'submit'], null],
    ['joined', 'PENDING', EARLIER, [], 'PARTY_EXPIRED'],
    ['expired', 'PENDING', EARLIER, [], 'PARTY_EXPIRED'],
    ['submitted', 'PENDING', LATER, [], 'PARTY_ALREADY_SUBMITTED'],
    ['joined', 'CLOSED', LATER, [], 'CASE_NOT_OPEN'],
    ['invited', 'PENDING', LATER, [], 'NOT_FOUND'],
  ] as const)('a party %s of a %s case, deadline %s: %j, else %s', (state, caseState, deadlineAt, actions, refusal) => {
    const p = { state, caseState, deadlineAt };
    expect(partyPageActions(p, NOW)).toEqual(actions);
    if (refusal) expect(() => assertMayWork(p, NOW)).toThrow(expect.objectContaining({ code: refusal }));
    else expect(() => assertMayWork(p, NOW)).not.toThrow();
  });
});
