import { describe, expect, it } from 'vitest';
import { decodeSearch, encodeSearch, searchFiltersParam, searchRowsSchema } from './search.js';

const issues = (rows: unknown) => {
  const r = searchRowsSchema.safeParse(rows);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('advanced search rows', () => {
  it('accept case columns and any form field with a fitting operator', () => {
    expect(issues([
      { column: 'state', op: 'in', value: ['PENDING', 'CLOSED'] },
      { column: 'docDate', op: 'between', value: ['2026-01-01', '2026-12-31'] },
      { column: 'data.payRent', op: 'gt', value: 500 },
      { column: 'data.firstName', op: 'contains', value: 'ana' },
      { column: 'data.third_party_email', op: 'empty' },
    ])).toEqual([]);
  });

  it('refuse unknown columns, operators, and names that are not field names', () => {
    expect(issues([{ column: 'password_hash', op: 'eq', value: 'x' }])).toEqual(['0.column:cases.search.badColumn']);
    expect(issues([{ column: "data.x'; drop table cases; --", op: 'eq', value: 'x' }])).toEqual(['0.column:cases.search.badColumn']);
    expect(issues([{ column: 'data.a', op: 'regex', value: '.*' }])).toEqual(['0.op:cases.search.badOperator']);
    expect(issues([{ column: 'state', op: 'contains', value: 'PEN' }])).toEqual(['0.op:cases.search.badOperator']);
  });

  it('want a value of the right shape', () => {
    expect(issues([{ column: 'data.a', op: 'eq' }])).toEqual(['0.value:validation.required']);
    expect(issues([{ column: 'data.a', op: 'between', value: [1] }])).toEqual(['0.value:cases.search.badValue']);
    expect(issues([{ column: 'data.a', op: 'in', value: 'x' }])).toEqual(['0.value:cases.search.badValue']);
  });

  it('go through the URL and back unchanged', () => {
    const rows = [{ column: 'data.firstName', op: 'startsWith' as const, value: 'An' }, { column: 'data.x', op: 'empty' as const }];
    expect(decodeSearch(encodeSearch(rows))).toEqual(rows);
    expect(decodeSearch('{broken')).toBe('not json');
  });
});

describe('values parsed for their column', () => {
  it('want a real date for date columns, on every operator', () => {
    expect(issues([{ column: 'docDate', op: 'eq', value: '2026-02-28' }, { column: 'createdAt', op: 'between', value: ['2026-01-01', '2026-12-31'] }])).toEqual([]);
    for (const value of ['not-a-date', '99999-99-99', '2026-02-30', '0000-01-01', '2026-1-5', 20260101]) {
      expect(issues([{ column: 'docDate', op: 'eq', value }]), String(value)).toEqual(['0.value:cases.search.notADate']);
    }
    expect(issues([{ column: 'docDate', op: 'between', value: ['a', 'b'] }])).toEqual(['0.value:cases.search.notADate']);
    expect(issues([{ column: 'createdAt', op: 'gt', value: 'yesterday' }])).toEqual(['0.value:cases.search.notADate']);
  });

  it('want a known state, a yes or no, and text without NUL', () => {
    expect(issues([{ column: 'state', op: 'in', value: ['PENDING', 'NOPE'] }])).toEqual(['0.value:validation.chooseOption']);
    expect(issues([{ column: 'possibleDuplicated', op: 'eq', value: 'maybe' }])).toEqual(['0.value:cases.search.notYesNo']);
    expect(issues([{ column: 'possibleDuplicated', op: 'eq', value: 'true' }, { column: 'serial', op: 'eq', value: 25 }])).toEqual([]);
    expect(issues([{ column: 'serial', op: 'eq', value: 'R\u00000' }])).toEqual(['0.value:validation.nul']);
    expect(issues([{ column: 'data.name', op: 'in', value: ['ok', '\u0000'] }])).toEqual(['0.value.1:validation.nul']);
  });

  it('are reported by the filters parameter at the row and column they belong to', () => {
    const at = (text: string) => {
      const r = searchFiltersParam.safeParse(text);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    };
    expect(at(encodeSearch([{ column: 'serial', op: 'eq', value: 'R1' }, { column: 'docDate', op: 'gt', value: 'soon' }]))).toEqual(['1.docDate:cases.search.notADate']);
    expect(at(JSON.stringify([['data.when', 'eq']]))).toEqual(['0.data.when:validation.required']);
    expect(at(JSON.stringify([['nope', 'eq', 'x']]))).toEqual(['0.column:cases.search.badColumn']);
    expect(at('{broken')).toEqual([':cases.search.unreadable']);
    expect(at(encodeSearch([{ column: 'docDate', op: 'eq', value: '2026-01-02' }]))).toEqual([]);
  });
});
