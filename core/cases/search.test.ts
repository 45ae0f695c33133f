import { describe, expect, it } from 'vitest';
import { decodeSearch, encodeSearch, searchRowsSchema } from './search.js';

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
