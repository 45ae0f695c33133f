import { describe, expect, it } from 'vitest';
import { adhocTaskSchema } from './adhoc.js';

const messages = (input: unknown) => {
  const parsed = adhocTaskSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('adhocTaskSchema', () => {
  it('names every missing field at once, the responsible included', () => {
    expect(messages({ name: ' ' })).toEqual([
      ['caseId', 'validation.chooseOption'],
      ['name', 'validation.required'],
      ['userId', 'validation.chooseOption'],
    ]);
  });

  it('takes a user or a team, trims the name, and keeps days within 0..3650 whole', () => {
    expect(adhocTaskSchema.parse({ caseId: 1, name: '  Call  ', teamId: 2, expirationDays: 0 })).toEqual({ caseId: 1, name: 'Call', teamId: 2, expirationDays: 0 });
    expect(messages({ caseId: 1, name: 'x', userId: 3, expirationDays: 1.5 })).toEqual([['expirationDays', 'adhocTasks.daysRange']]);
    expect(messages({ caseId: 1, name: 'x', userId: 3, expirationDays: 3651 })).toEqual([['expirationDays', 'adhocTasks.daysRange']]);
    expect(messages({ caseId: 1, name: 'x'.repeat(201), userId: 3, instructions: 'y'.repeat(2001) })).toEqual([
      ['name', 'validation.tooLong'],
      ['instructions', 'validation.tooLong'],
    ]);
  });

  it('refuses a body that is not an object without throwing', () => {
    expect(messages(null)).toHaveLength(1);
    expect(messages('text')).toHaveLength(1);
  });
});
