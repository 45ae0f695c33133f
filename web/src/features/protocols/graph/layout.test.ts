import { describe, expect, test } from 'vitest';
import type { ProtocolDefinition, TaskTemplate } from '../../../../../core/workflow/protocol.js';
import { COLUMN_WIDTH, layoutProtocol, NOT_ELIGIBLE_ID, ROW_HEIGHT, taskDepths } from './layout.js';

const task = (code: string, onAccept: TaskTemplate['onAccept'] = [], onReject: TaskTemplate['onReject'] = null): TaskTemplate => ({
  code,
  name: code.toUpperCase(),
  formId: null,
  responsible: { kind: 'owner' },
  expirationDays: null,
  join: 'any',
  onAccept,
  onReject,
});

/** The demo's shape: intake -> documents -> eligibility and landlord in parallel -> payment -> supervisor or notify. */
const rental: Pick<ProtocolDefinition, 'start' | 'tasks'> = {
  start: ['intake'],
  tasks: [
    task('intake', [{ to: 'documents' }], { notEligible: true }),
    task('documents', [{ to: 'eligibility' }, { to: 'landlord' }], { to: 'intake' }),
    task('eligibility', [{ to: 'payment', when: "eligible == 'yes'" }], { notEligible: true }),
    task('landlord', [{ to: 'payment' }], { to: 'intake' }),
    task('payment', [{ to: 'supervisor', when: 'amount > 5000' }, { to: 'notify', when: 'amount <= 5000' }], { to: 'eligibility' }),
    task('supervisor', [{ to: 'notify' }], { to: 'payment' }),
    task('notify'),
  ],
};

describe('taskDepths', () => {
  test('is the longest accept path from the start, so a task sits right of everything that leads to it', () => {
    expect(Object.fromEntries(taskDepths(rental))).toEqual({ intake: 0, documents: 1, eligibility: 2, landlord: 2, payment: 3, supervisor: 4, notify: 5 });
  });

  test('an accept edge that closes a loop does not push tasks further right', () => {
    const loop = { start: ['a'], tasks: [task('a', [{ to: 'b' }]), task('b', [{ to: 'a', when: 'x > 1' }, { to: 'c' }]), task('c')] };
    expect(Object.fromEntries(taskDepths(loop))).toEqual({ a: 0, b: 1, c: 2 });
  });

  test('tasks no path reaches, and edges to unknown tasks, are left out', () => {
    const def = { start: ['a'], tasks: [task('a', [{ to: 'ghost' }]), task('lonely')] };
    expect(Object.fromEntries(taskDepths(def))).toEqual({ a: 0 });
  });
});

describe('layoutProtocol', () => {
  test('lays tasks out left to right by depth, each column centred on one line', () => {
    const { nodes } = layoutProtocol(rental);
    const at = (id: string) => nodes.find((n) => n.id === id);
    expect(at('intake')).toMatchObject({ kind: 'task', column: 0, x: 0, y: 0, start: true });
    expect(at('documents')).toMatchObject({ column: 1, x: COLUMN_WIDTH, y: 0 });
    // Two tasks in parallel share a column, one above the other around y = 0.
    expect(at('eligibility')).toMatchObject({ column: 2, y: -ROW_HEIGHT / 2 });
    expect(at('landlord')).toMatchObject({ column: 2, y: ROW_HEIGHT / 2 });
    expect(at('payment')).toMatchObject({ column: 3, x: 3 * COLUMN_WIDTH });
    expect(at('notify')).toMatchObject({ column: 5 });
    expect(at('documents')?.start).toBeUndefined();
  });

  test('accept edges carry their condition; reject edges go back, or down to "Not eligible"', () => {
    const { nodes, edges } = layoutProtocol(rental);
    expect(edges.filter((e) => e.kind === 'accept').map((e) => [e.source, e.target, e.label])).toEqual([
      ['intake', 'documents', undefined],
      ['documents', 'eligibility', undefined],
      ['documents', 'landlord', undefined],
      ['eligibility', 'payment', "eligible == 'yes'"],
      ['landlord', 'payment', undefined],
      ['payment', 'supervisor', 'amount > 5000'],
      ['payment', 'notify', 'amount <= 5000'],
      ['supervisor', 'notify', undefined],
    ]);
    expect(edges.filter((e) => e.kind === 'reject').map((e) => [e.source, e.target])).toEqual([
      ['intake', NOT_ELIGIBLE_ID],
      ['documents', 'intake'],
      ['eligibility', NOT_ELIGIBLE_ID],
      ['landlord', 'intake'],
      ['payment', 'eligibility'],
      ['supervisor', 'payment'],
    ]);
    const notEligible = nodes.find((n) => n.id === NOT_ELIGIBLE_ID);
    // Under every task.
    expect(notEligible?.y).toBeGreaterThan(Math.max(...nodes.filter((n) => n.kind === 'task').map((n) => n.y)));
  });

  test('no "Not eligible" node when no task ends a case that way; unreachable tasks go after the others', () => {
    const def = { start: ['a'], tasks: [task('a', [{ to: 'b' }]), task('b'), task('orphan', [], { to: 'a' })] };
    const { nodes, edges } = layoutProtocol(def);
    expect(nodes.some((n) => n.kind === 'notEligible')).toBe(false);
    expect(nodes.find((n) => n.id === 'orphan')).toMatchObject({ column: 2, unreachable: true });
    expect(edges.find((e) => e.id === 'reject:orphan')).toMatchObject({ source: 'orphan', target: 'a' });
  });

  test('a draft being written (no start, edges to tasks that do not exist yet) still draws', () => {
    const def = { start: [], tasks: [task('a', [{ to: 'missing' }, { to: 'a' }], { to: 'nowhere' })] };
    const { nodes, edges } = layoutProtocol(def);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ id: 'a', column: 0, unreachable: true });
    // The edge to itself is kept (the checks name it); the unknown targets are not drawn.
    expect(edges.map((e) => e.target)).toEqual(['a']);
  });

  test('follows the draft: a new accept edge moves the task it leads to', () => {
    const before = layoutProtocol({ start: ['a'], tasks: [task('a'), task('b')] });
    const after = layoutProtocol({ start: ['a'], tasks: [task('a', [{ to: 'b' }]), task('b')] });
    expect(before.nodes.find((n) => n.id === 'b')).toMatchObject({ unreachable: true });
    expect(after.nodes.find((n) => n.id === 'b')).toMatchObject({ column: 1 });
    expect(after.nodes.find((n) => n.id === 'b')?.unreachable).toBeUndefined();
  });
});
