import { describe, expect, test } from 'vitest';
import { countProblems, sortProblems } from './problems.js';

describe('sortProblems', () => {
  test('puts each problem of a 422 where the editor shows it', () => {
    const sorted = sortProblems(
      [
        { path: 'code', message: 'Use lower-case letters' },
        { path: 'mainFormId', message: 'You must choose an option' },
        { path: 'start', message: 'Choose the task a case starts with' },
        { path: 'tasks.eligibility.onAccept.0.when', message: 'The condition is not valid' },
        { path: 'tasks.documents.onReject', message: 'A reject can only go back to an earlier task' },
        { path: 'tasks.1.name', message: 'This field is required' },
        { path: 'tasks.intake', message: 'No path from the start reaches this task' },
        { path: 'pendingColumns.section8', message: 'Too long' },
        { path: 'tasks', message: 'Add at least one task' },
        { path: 'tasks.9.code', message: 'Out of range' },
      ],
      ['intake', 'documents', 'eligibility'],
    );
    expect(sorted.settings).toEqual({ code: 'Use lower-case letters', mainFormId: 'You must choose an option' });
    expect(sorted.start).toEqual(['Choose the task a case starts with']);
    expect(sorted.tasks.get('eligibility')).toEqual([{ part: 'onAccept.0', message: 'The condition is not valid' }]);
    // By position (the schema's paths) or by code (the checks' paths), the same task.
    expect(sorted.tasks.get('documents')).toEqual([
      { part: 'onReject', message: 'A reject can only go back to an earlier task' },
      { part: 'name', message: 'This field is required' },
    ]);
    expect(sorted.tasks.get('intake')).toEqual([{ part: '', message: 'No path from the start reaches this task' }]);
    expect(sorted.pendingColumns).toEqual(['Too long']);
    expect(sorted.general).toEqual(['Add at least one task', 'Out of range']);
    expect(countProblems(sorted)).toBe(10);
  });

  test('the parties\' and the award caps\' problems land on their sections', () => {
    const sorted = sortProblems(
      [
        { path: 'parties.landlord.formId', message: 'Unknown form' },
        { path: 'parties.0.deadlineDays', message: 'Too small' },
        { path: 'awardCaps.maxTotal', message: 'Too large' },
        { path: 'tasks.0.waitsForParty', message: 'Not a role' },
      ],
      ['approval'],
    );
    expect(sorted.parties).toEqual(['Unknown form', 'Too small']);
    expect(sorted.awards).toEqual(['Too large']);
    expect(sorted.tasks.get('approval')).toEqual([{ part: 'waitsForParty', message: 'Not a role' }]);
    expect(sorted.general).toEqual([]);
    expect(countProblems(sorted)).toBe(4);
  });

  test('a task\'s email templates and escalation land on their own fields of the dialog', () => {
    const sorted = sortProblems(
      [
        { path: 'tasks.intake.mailTemplates.task_overdue', message: 'Unknown template' },
        { path: 'tasks.intake.escalation.role', message: 'Unknown role' },
        { path: 'tasks.0.escalation.afterDays', message: 'Too many days' },
        { path: 'tasks.0.escalation', message: 'Invalid' },
        { path: 'tasks.0.mailTemplates.case_closed', message: 'Not a task event' },
      ],
      ['intake'],
    );
    expect(sorted.tasks.get('intake')).toEqual([
      { part: 'mailTemplates.task_overdue', message: 'Unknown template' },
      { part: 'escalation.role', message: 'Unknown role' },
      { part: 'escalation.afterDays', message: 'Too many days' },
      { part: 'escalation', message: 'Invalid' },
      { part: 'mailTemplates', message: 'Not a task event' },
    ]);
  });
});
