import { describe, expect, it } from 'vitest';
import { checkCondition, compileCondition, evaluate, ExprError, parseExpr } from './expr.js';

const run = (src: string, values: Record<string, unknown> = {}, role?: string) => evaluate(parseExpr(src), { values, role });
const when = (src: string, values: Record<string, unknown> = {}, role?: string) => compileCondition(src)({ values, role });

describe('expressions', () => {
  it('compares, combines and does arithmetic', () => {
    expect(run('income > 0 && members >= 2', { income: 1200, members: 3 })).toBe(true);
    expect(run('income > 0 && members >= 2', { income: 0, members: 3 })).toBe(false);
    expect(run('a + b * 2', { a: 1, b: 3 })).toBe(7);
    expect(run('(a + b) * 2', { a: 1, b: 3 })).toBe(8);
    expect(run('-a + 10 % 4', { a: 1 })).toBe(1);
    expect(run("'x' + 'y'")).toBe('xy');
    expect(run('1 / 0')).toBeNull();
  });

  it('reads nested values, array lengths and the role', () => {
    expect(run('address.city == "Bogota"', { address: { city: 'Bogota' } })).toBe(true);
    expect(run('values.household.length', { household: [1, 2] })).toBe(2);
    expect(run("role == 'coordinator'", {}, 'coordinator')).toBe(true);
    expect(run('missing.deep.name')).toBeNull();
  });

  it('supports in, lists and the helper functions', () => {
    expect(run("status in ['PENDING', 'BLOCKED']", { status: 'BLOCKED' })).toBe(true);
    expect(run("'b' in 'abc'")).toBe(true);
    expect(run('empty(email) || len(name) > 3', { email: '', name: 'Al' })).toBe(true);
    expect(run("contains(sources, 'SNAP')", { sources: ['WIC', 'SNAP'] })).toBe(true);
    expect(run("lower(city) == 'bogota'", { city: 'BOGOTA' })).toBe(true);
    expect(run("number('12') + 1")).toBe(13);
  });

  it('treats text numbers as numbers the way form values arrive', () => {
    expect(run('members == 3', { members: '3' })).toBe(true);
    expect(run('members > 2', { members: '3' })).toBe(true);
    expect(run("income > 'abc'", { income: 5 })).toBe(false);
  });

  it('is true when empty, and converts to a boolean', () => {
    expect(when('')).toBe(true);
    expect(when('   ')).toBe(true);
    expect(when('list', { list: [] })).toBe(false);
    expect(when('list', { list: [1] })).toBe(true);
  });
});

describe('safety', () => {
  it.each([
    ['constructor', 0],
    ['a.__proto__.polluted', 2],
    ['values.constructor.constructor', 7],
    ["x.prototype == 'y'", 2],
  ])('refuses prototype access in %s', (src, position) => {
    const error = checkCondition(src);
    expect(error).toBeInstanceOf(ExprError);
    expect(error?.position).toBe(position);
  });

  it('cannot reach globals or call anything but its own functions', () => {
    expect(checkCondition('process.exit(1)')?.message).toMatch(/Unknown function 'process.exit'/);
    expect(checkCondition('eval("1")')?.message).toMatch(/Unknown function 'eval'/);
    expect(checkCondition('globalThis')).toBeUndefined(); // a name: resolves to a form value, never the global
    expect(run('globalThis')).toBeNull();
    expect(run('toString', {})).toBeNull(); // own properties only
    expect(run('hasOwnProperty', { a: 1 })).toBeNull();
  });

  it('does not let a value object pretend to be code', () => {
    const values = JSON.parse('{"__proto__": {"admin": true}, "a": {"constructor": 1}}');
    expect(run('admin', values)).toBeNull();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it.each([
    ['a >', 3, /ended too early/],
    ['(a > 1', 6, /Expected '\)'/],
    ['a > > 1', 4, /Unexpected '>'/],
    ["name == 'open", 8, /Unterminated string/],
    ['a = 1', 2, /Unexpected character '='/],
    ['a > 1 b', 6, /Unexpected 'b'/],
    ['len(a, b)', 0, /takes 1 argument/],
    ['1.2.3 > 0', 0, /Malformed number/],
    ['a..b', 0, /Malformed name/],
  ])('reports %j with its position', (src, position, message) => {
    const error = checkCondition(src);
    expect(error?.position).toBe(position);
    expect(error?.message).toMatch(message);
    expect(error?.message).toMatch(new RegExp(`at position ${position + 1}$`));
  });

  it('refuses absurd input instead of exhausting the stack', () => {
    expect(checkCondition('('.repeat(60) + 'a' + ')'.repeat(60))?.message).toMatch(/nested too deeply/);
    expect(checkCondition('a'.repeat(3000))?.message).toMatch(/longer than/);
  });
});
