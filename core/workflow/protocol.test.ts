import { describe, expect, it } from 'vitest';
import { parseProtocolDefinition, predecessors, ProtocolDefinitionError } from './protocol.js';

const task = (code: string, extra: Record<string, unknown> = {}) => ({ code, name: code, responsible: { kind: 'owner' }, ...extra });
const problems = (def: unknown) => {
  try {
    parseProtocolDefinition(def);
    return [];
  } catch (e) {
    if (!(e instanceof ProtocolDefinitionError)) throw e;
    return e.problems.map((p) => `${p.path}:${p.reason}`);
  }
};

/** The demo's shape: intake -> documents -> eligibility -> (landlord, conditional) -> payment. */
const demo = {
  start: ['intake'],
  tasks: [
    task('intake', { onAccept: [{ to: 'documents' }], onReject: { notEligible: true } }),
    task('documents', { onAccept: [{ to: 'eligibility' }], onReject: { to: 'intake' } }),
    task('eligibility', { onAccept: [{ to: 'landlord', when: "eligible == 'yes'" }, { to: 'closing', when: "eligible == 'no'" }], onReject: { to: 'intake' } }),
    task('landlord', { onAccept: [{ to: 'payment' }], onReject: { to: 'documents' } }),
    task('payment', { onReject: { to: 'eligibility' } }),
    task('closing'),
  ],
};

describe('protocol definitions', () => {
  it('lets one task set the award, and a task wait only for a party role the protocol invites, each role once', () => {
    const parties = [{ role: 'landlord' }];
    const withMoney = (tasks: ReturnType<typeof task>[], ps: unknown[] = parties) => ({ ...demo, tasks, parties: ps });
    const tasks = demo.tasks.map((t) => (t.code === 'payment' ? { ...t, award: true } : t.code === 'landlord' ? { ...t, waitsForParty: 'landlord' } : t));
    expect(problems(withMoney(tasks))).toEqual([]);
    const twoAwards = tasks.map((t) => (t.code === 'closing' ? { ...t, award: true } : t));
    expect(problems(withMoney(twoAwards))).toEqual(['tasks.closing.award:protocols.def.secondAward']);
    expect(problems(withMoney(tasks, []))).toEqual(['tasks.landlord.waitsForParty:protocols.def.unknownPartyRole']);
    expect(problems(withMoney(tasks, [{ role: 'landlord' }, { role: 'landlord' }]))).toEqual(['parties.1.role:protocols.def.duplicatePartyRole']);
  });

  it('accepts a protocol with branches and reject-back paths, with defaults', () => {
    const def = parseProtocolDefinition(demo);
    expect(def.tasks[0]).toMatchObject({ join: 'any', expirationDays: null, formId: null });
    expect(predecessors(def, 'payment')).toEqual(['landlord']);
  });

  it('takes award caps and parties with their defaults, and refuses a total cap of nothing', () => {
    const def = parseProtocolDefinition({ ...demo, parties: [{ role: 'landlord' }], awardCaps: { maxTotal: 25_000_00 } });
    expect(def.parties[0]).toMatchObject({ role: 'landlord', formId: null, deadlineDays: 14, remindEveryDays: 3, payTenantAfterDeadline: false });
    expect(def.awardCaps).toMatchObject({ maxArrearsMonths: 12, maxAheadMonths: 3, maxMonthlyRent: null, maxUtilities: 0, maxTotal: 25_000_00 });
    expect(parseProtocolDefinition(demo).awardCaps).toBeNull();
    expect(problems({ ...demo, awardCaps: { maxTotal: 0 } })).toEqual(['awardCaps.maxTotal:validation.required']);
    expect(problems({ ...demo, parties: [{ role: 'tenant' }] })[0]).toMatch(/^parties\.0\.role:/);
  });

  it('needs tasks and a start that exists', () => {
    expect(problems({ tasks: [] })).toEqual(['tasks:protocols.def.noTasks', 'start:protocols.def.noStart']);
    expect(problems({ start: ['ghost'], tasks: [task('a')] })).toEqual(['start:protocols.def.unknownTask', 'tasks.a:protocols.def.unreachable']);
  });

  it("keeps the code 'adhoc' for tasks created by hand", () => {
    expect(problems({ start: ['adhoc'], tasks: [task('adhoc')] })).toContain('tasks.0.code:protocols.def.reservedCode');
  });

  it('refuses unknown targets, self loops and bad conditions', () => {
    expect(problems({ start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b' }] })] })).toContain('tasks.a.onAccept.0:protocols.def.unknownTask');
    expect(problems({ start: ['a'], tasks: [task('a', { onAccept: [{ to: 'a' }] })] })).toContain('tasks.a.onAccept.0:protocols.def.acceptToSelf');
    expect(problems({ start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b', when: 'x >' }] }), task('b')] })).toEqual(['tasks.a.onAccept.0.when:protocols.def.badCondition']);
  });

  it('sends a reject only back to an earlier task', () => {
    expect(problems({ start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b' }], onReject: { to: 'b' } }), task('b')] })).toEqual(['tasks.a.onReject:protocols.def.rejectNotEarlier']);
    expect(problems({ start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b' }] }), task('b', { onReject: { to: 'a' } })] })).toEqual([]);
  });

  it('refuses a loop that can never end, and tasks that can never start', () => {
    const loop = { start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b' }] }), task('b', { onAccept: [{ to: 'a' }] })] };
    expect(problems(loop)).toEqual(['tasks.a:protocols.def.neverEnds', 'tasks.b:protocols.def.neverEnds']);
    // A loop with a way out is fine.
    const exit = { start: ['a'], tasks: [task('a', { onAccept: [{ to: 'b' }] }), task('b', { onAccept: [{ to: 'a', when: 'again' }, { to: 'c', when: '!again' }] }), task('c')] };
    expect(problems(exit)).toEqual([]);
    expect(problems({ start: ['a'], tasks: [task('a'), task('island')] })).toEqual(['tasks.island:protocols.def.unreachable']);
  });

  it('refuses duplicate codes and a responsible task that does not exist', () => {
    expect(problems({ start: ['a'], tasks: [task('a'), task('a')] })).toContain('tasks.a:protocols.def.duplicateCode');
    expect(problems({ start: ['a'], tasks: [task('a', { responsible: { kind: 'task', task: 'zz' } })] })).toEqual(['tasks.a.responsible:protocols.def.unknownTask']);
  });
});
