import { describe, expect, it } from 'vitest';
import type { CaseActionName } from '../../../core/api/cases.js';
import type { Actor } from '../acl/policy.js';
import { assertCaseAction, caseActions, isStaff } from './policy.js';

/**
 * The case policy as a table, written out: which rights a role holds, the
 * case's state, the action, and whether it is allowed. Who may see a case at
 * all (owner, participant, staff) is the visibility table of
 * policy.api.test.ts; these rows assume the case was found.
 */
const actorWith = (rules: Record<string, string[]>, superAdmin = false): Actor => ({
  userId: 1,
  entityId: 1,
  entity: { docnumber: '1', name: 'Agency' },
  name: 'Someone',
  email: 'someone@example.test',
  role: { id: 1, code: 'custom', name: 'custom', superAdmin },
  rules: new Map(Object.entries(rules).map(([k, v]) => [k, new Set(v)])),
  language: 'en',
  timeZone: 'UTC',
  sessionId: 1,
  projectId: null,
  idleSeconds: 3000,
});

const ROLES = {
  /** An applicant: drafts and their own cases. */
  applicant: actorWith({ wf_casos: ['show', 'create'], borradores: ['show', 'create_drafts'] }),
  /** A reviewer: tasks, and cases to read and correct. */
  reviewer: actorWith({ wf_tareas: ['show', 'accept', 'reject'], wf_casos: ['show', 'update'] }),
  /** A coordinator: every case action. */
  coordinator: actorWith({
    wf_tareas: ['show'], admin_cases: ['show', 'update'], wf_casos: ['show', 'update'], wf_abrir_caso: ['confirm'], wf_completar_caso: ['confirm'],
    wf_cerrar_caso: ['confirm'], wf_activar_caso: ['confirm'], change_owner_case: ['update'], wf_casos_participantes: ['update'],
  }),
  /** A custom role with every case target but no staff rights (the hole of issue 14). */
  caseClerk: actorWith({
    wf_casos: ['show', 'update'], wf_abrir_caso: ['confirm'], wf_completar_caso: ['confirm'], wf_cerrar_caso: ['confirm'], wf_activar_caso: ['confirm'],
    change_owner_case: ['update'], wf_casos_participantes: ['update'],
  }),
  superAdmin: actorWith({}, true),
} as const;

type Row = [role: keyof typeof ROLES, state: string, action: CaseActionName, allowed: boolean | string];
// allowed: true, or the error code it is refused with.
const TABLE: Row[] = [
  ['applicant', 'DRAFT', 'open', 'FORBIDDEN'],
  ['applicant', 'PENDING', 'close', 'FORBIDDEN'],
  ['applicant', 'PENDING', 'editData', 'FORBIDDEN'],
  ['applicant', 'PENDING', 'changeOwner', 'FORBIDDEN'],
  ['applicant', 'PENDING', 'participants', 'FORBIDDEN'],
  ['reviewer', 'PENDING', 'editData', true],
  ['reviewer', 'SUCCESS', 'editData', 'CASE_NOT_OPEN'],
  ['reviewer', 'PENDING', 'close', 'FORBIDDEN'],
  ['reviewer', 'PENDING', 'complete', 'FORBIDDEN'],
  ['reviewer', 'PENDING', 'changeOwner', 'FORBIDDEN'],
  ['coordinator', 'DRAFT', 'open', true],
  ['coordinator', 'PENDING', 'open', 'INVALID_TRANSITION'],
  ['coordinator', 'PENDING', 'complete', true],
  ['coordinator', 'PENDING', 'close', true],
  ['coordinator', 'CLOSED', 'close', 'INVALID_TRANSITION'],
  ['coordinator', 'CLOSED', 'activate', true],
  ['coordinator', 'PENDING', 'activate', 'INVALID_TRANSITION'],
  ['coordinator', 'PENDING', 'editData', true],
  ['coordinator', 'INCONSISTENCY', 'editData', 'CASE_NOT_OPEN'],
  ['coordinator', 'PENDING', 'changeOwner', true],
  ['coordinator', 'PENDING', 'participants', true],
  // Case targets without staff rights: the transitions and owner changes its targets grant (on cases it can see: its own),
  // but correcting data is staff work.
  ['caseClerk', 'PENDING', 'close', true],
  ['caseClerk', 'PENDING', 'changeOwner', true],
  ['caseClerk', 'PENDING', 'editData', 'FORBIDDEN'],
  ['superAdmin', 'PENDING', 'editData', true],
  ['superAdmin', 'PENDING', 'close', true],
  ['superAdmin', 'REJECTED', 'complete', 'INVALID_TRANSITION'],
];

describe('the case policy', () => {
  it.each(TABLE)('%s on a %s case: %s -> %s', (role, state, action, allowed) => {
    const actor = ROLES[role];
    expect(caseActions(actor, { state }).includes(action)).toBe(allowed === true);
    if (allowed === true) expect(() => assertCaseAction(actor, { state }, action)).not.toThrow();
    else expect(() => assertCaseAction(actor, { state }, action)).toThrow(expect.objectContaining({ code: allowed }));
  });

  // Returned for correction: the relation to the case (owner or not) and whether a request is open matter too.
  type CorrectionRow = [role: keyof typeof ROLES, state: string, owner: boolean, open: boolean, action: CaseActionName, allowed: boolean | string];
  const CORRECTIONS: CorrectionRow[] = [
    ['coordinator', 'PENDING', false, false, 'returnForCorrection', true],
    ['coordinator', 'PENDING', false, true, 'returnForCorrection', 'CORRECTION_OPEN'],
    ['coordinator', 'CLOSED', false, false, 'returnForCorrection', 'CASE_NOT_OPEN'],
    ['coordinator', 'PENDING', false, true, 'cancelCorrection', true],
    ['coordinator', 'PENDING', false, false, 'cancelCorrection', 'NO_OPEN_CORRECTION'],
    ['coordinator', 'PENDING', false, true, 'resubmit', 'FORBIDDEN'],
    ['reviewer', 'PENDING', false, false, 'returnForCorrection', true],
    ['caseClerk', 'PENDING', false, false, 'returnForCorrection', 'FORBIDDEN'],
    ['caseClerk', 'PENDING', false, true, 'cancelCorrection', 'FORBIDDEN'],
    ['applicant', 'PENDING', true, false, 'returnForCorrection', 'FORBIDDEN'],
    ['applicant', 'PENDING', true, true, 'resubmit', true],
    ['applicant', 'PENDING', true, false, 'resubmit', 'NO_OPEN_CORRECTION'],
    ['applicant', 'INCONSISTENCY', true, true, 'resubmit', 'CASE_NOT_OPEN'],
    // A participant who is not the owner reads the case but may not resubmit it.
    ['applicant', 'PENDING', false, true, 'resubmit', 'FORBIDDEN'],
    ['applicant', 'PENDING', true, true, 'cancelCorrection', 'FORBIDDEN'],
  ];
  it.each(CORRECTIONS)('%s on a %s case (owner %s, open request %s): %s -> %s', (role, state, owner, open, action, allowed) => {
    const actor = ROLES[role];
    const c = { state, ownerId: owner ? actor.userId : actor.userId + 1, correctionOpen: open };
    expect(caseActions(actor, c).includes(action)).toBe(allowed === true);
    if (allowed === true) expect(() => assertCaseAction(actor, c, action)).not.toThrow();
    else expect(() => assertCaseAction(actor, c, action)).toThrow(expect.objectContaining({ code: allowed }));
  });

  it.each([
    ['applicant', false],
    ['reviewer', true],
    ['coordinator', true],
    ['caseClerk', false],
    ['superAdmin', true],
  ] as const)('%s is staff (sees every case of the tenant): %s', (role, staff) => {
    expect(isStaff(ROLES[role])).toBe(staff);
  });
});
