import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../forms/definition.js';
import { changedNames, correctableFields, fieldLabel, sameValue } from './correction.js';

const f = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label: `${name} es`, label_en: `${name} en`, ...extra });

describe('returned for correction: the shared rules', () => {
  it('offers the top-level value fields in the order the form shows them, steps flattened, text blocks left out', () => {
    const fields = [
      f('stepper', 'stepper', {
        children: [
          f('one', 'step', { children: [f('b', 'text', { orderList: 2 }), f('a', 'text', { orderList: 1 }), f('note', 'static')] }),
          f('two', 'step', { children: [f('household', 'repeat', { children: [f('age', 'number')] }), f('proof', 'file')] }),
        ],
      }),
    ];
    expect(correctableFields(fields).map((x) => x.name)).toEqual(['a', 'b', 'household', 'proof']);
  });

  it('names a field in the reader’s language, falling back to the other label, then the name', () => {
    expect(fieldLabel(f('rent', 'number'), 'en')).toBe('rent en');
    expect(fieldLabel(f('rent', 'number'), 'es')).toBe('rent es');
    expect(fieldLabel({ name: 'rent', label: '', label_en: undefined }, 'es')).toBe('rent');
  });

  it('counts empty values as one and ignores the order of object keys', () => {
    expect(sameValue(undefined, '')).toBe(true);
    expect(sameValue(null, [])).toBe(true);
    expect(sameValue(false, undefined)).toBe(true);
    expect(sameValue(0, '')).toBe(false);
    expect(sameValue([{ id: 'x', name: 'a.pdf' }], [{ name: 'a.pdf', id: 'x' }])).toBe(true);
    expect(sameValue([{ id: 'x' }], [{ id: 'y' }])).toBe(false);
  });

  it('lists what a resubmission changes among the names it holds (a name left out is unchanged)', () => {
    const saved = { firstName: 'Lucía', payRent: 900, documents: [] };
    expect(changedNames(saved, { payRent: 950 })).toEqual(['payRent']);
    expect(changedNames(saved, { ...saved, firstName: 'Lucia', extra: 1 })).toEqual(['extra', 'firstName']);
    expect(changedNames(saved, { ...saved, documents: null })).toEqual([]);
  });
});
