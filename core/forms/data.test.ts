import { describe, expect, it } from 'vitest';
import { FORM_DATA_LIMITS, formDataSchema, isEmptyPartyValue, isPartyValue, partyAnswers, partyText } from './data.js';
import type { FieldDef } from './definition.js';

const issues = (data: unknown) => {
  const r = formDataSchema.safeParse(data);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

/** `{ a: { a: ... 1 } }`, `levels` objects deep, built without recursion. */
const nested = (levels: number) => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v as Record<string, unknown>;
};

describe('form data as a request body', () => {
  it('accepts what a form holds: values, lists, repeat rows with file references', () => {
    expect(issues({
      firstName: 'Ana', income: 1200, agree: true, colours: ['red', 'blue'],
      household: [{ name: 'Luis', age: 9, documents: [{ id: 'f1', name: 'id.pdf', size: 1000 }] }],
    })).toEqual([]);
  });

  it('refuses nesting deeper than a form produces, 5,000 levels included, without overflowing the stack', () => {
    expect(issues(nested(FORM_DATA_LIMITS.depth))).toEqual([]);
    expect(issues(nested(FORM_DATA_LIMITS.depth + 1))).toEqual([`${'a.'.repeat(FORM_DATA_LIMITS.depth - 1)}a:validation.tooDeep`]);
    expect(issues(nested(5_000))).toHaveLength(1);
    expect(issues(nested(5_000))[0]).toMatch(/:validation\.tooDeep$/);
  });

  it('refuses too many fields in one object and too many items in one list', () => {
    const wide = Object.fromEntries(Array.from({ length: FORM_DATA_LIMITS.keys + 1 }, (_, i) => [`f${i}`, 1]));
    expect(issues(wide)).toEqual([':validation.tooManyKeys']);
    expect(issues({ rows: [{ wide }] })).toEqual(['rows.0.wide:validation.tooManyKeys']);
    expect(issues({ list: Array.from({ length: FORM_DATA_LIMITS.items + 1 }, () => 0) })).toEqual(['list:validation.tooManyItems']);
  });

  it('keeps the size cap and the field-name length', () => {
    expect(issues({ note: 'x'.repeat(FORM_DATA_LIMITS.size) })).toEqual([':cases.errors.tooLarge']);
    expect(issues({ ['n'.repeat(64)]: 1 })).toHaveLength(1);
  });
});

describe('party answers (issue 23)', () => {
  const fields: FieldDef[] = [
    { name: 'steps', type: 'stepper', label: 'S', children: [{ name: 'one', type: 'step', label: '1', children: [{ name: 'landlord', type: 'party', label: 'L', partyRole: 'landlord' }] }] },
    { name: 'utilities', type: 'repeat', label: 'U', children: [{ name: 'company', type: 'party', label: 'C', partyRole: 'utility' }] },
    { name: 'note', type: 'text', label: 'N' },
  ];

  it('lists each party a form names with the field it came from, inside steps and repeat rows', () => {
    const data = {
      landlord: { role: 'landlord', name: 'Larry', email: 'l@example.org', phone: null },
      utilities: [{ company: { role: 'utility', name: 'Power', email: 'p@example.org', phone: '5551234567' } }, { company: '' }],
      note: { role: 'landlord', name: 'not a party field', email: 'x@example.org' },
    };
    expect(partyAnswers(fields, data)).toEqual([
      { field: 'landlord', role: 'landlord', name: 'Larry', email: 'l@example.org', phone: null },
      { field: 'utilities.0.company', role: 'utility', name: 'Power', email: 'p@example.org', phone: '5551234567' },
    ]);
  });

  it('shows a party as one line and tells a blank one', () => {
    expect(partyText({ role: 'landlord', name: 'Larry', email: 'l@example.org', phone: null })).toBe('Larry <l@example.org>');
    expect(isEmptyPartyValue({ name: ' ', email: '' })).toBe(true);
    expect(isEmptyPartyValue({ name: 'L' })).toBe(false);
    expect(isPartyValue({ role: 'landlord', name: 'L', email: 'l@x.org' })).toBe(true);
    expect(isPartyValue({ role: 'butler', name: 'L', email: 'l@x.org' })).toBe(false);
  });
});
