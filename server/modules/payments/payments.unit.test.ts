import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaymentsKey } from '../../config.js';
import { configurePaymentsKey, paymentsKeyPresent, seal, unseal } from './crypto.js';
import { coveredMonths, normaliseAddress, propertyKey } from './keys.js';
import { buildNacha, readNacha, traceNumberOf } from './nacha.js';

describe('the overlap keys', () => {
  it('makes one property key of the ways an address and unit are written', () => {
    expect(propertyKey('12 Main Street', 'Apt. 3B')).toBe(propertyKey('12 main st', '#3b'));
    expect(propertyKey('12 Main Street', 'Unit 3B')).toBe('12 main st|3b');
    expect(propertyKey('12 Main Street', '3A')).not.toBe(propertyKey('12 Main Street', '3B'));
    expect(normaliseAddress('Calle Peñón 5, Apartamento 2')).toBe('c penon 5 apt 2');
  });

  it('counts the months ahead from after the arrears or from the month of the decision', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(coveredMonths(['2026-01', '2026-02'], 2, now)).toEqual(['2026-01', '2026-02', '2026-03', '2026-04']);
    expect(coveredMonths(['2026-03'], 1, now)).toEqual(['2026-03', '2026-04']);
    expect(coveredMonths(['2025-11', '2025-12'], 2, now)).toEqual(['2025-11', '2025-12', '2026-03', '2026-04']);
    expect(coveredMonths([], 0, now)).toEqual([]);
  });
});

describe('the payments key and sealing', () => {
  it('takes 32 bytes as hex or base64 and refuses anything else with one line', () => {
    const key = randomBytes(32);
    expect(parsePaymentsKey(key.toString('hex')).key?.equals(key)).toBe(true);
    expect(parsePaymentsKey(key.toString('base64')).key?.equals(key)).toBe(true);
    expect(() => parsePaymentsKey('short')).toThrow(/PAYMENTS_KEY/);
    expect(() => parsePaymentsKey(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
  });

  it('seals with AES-256-GCM under the key id, and a changed ciphertext does not open', () => {
    const parsed = parsePaymentsKey(randomBytes(32).toString('hex'));
    configurePaymentsKey({ payments: parsed, database: { embedded: false } as never, data: { dir: '/nonexistent', explicit: true } });
    const { secret, keyId } = seal({ accountNumber: '123456789' });
    expect(keyId).toBe(parsed.keyId);
    expect(secret).not.toContain('123456789');
    expect(unseal<{ accountNumber: string }>(secret, keyId).accountNumber).toBe('123456789');
    const [iv, tag, body] = secret.split('.');
    const flipped = Buffer.from(body, 'base64');
    flipped[0] ^= 1;
    expect(() => unseal(`${iv}.${tag}.${flipped.toString('base64')}`, keyId)).toThrow();
  });
});

describe('the embedded mode without PAYMENTS_KEY', () => {
  it('makes a key once in DATA_DIR (mode 0600) and reads the same one at the next start; with DATABASE_URL there is none', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'payments-key-'));
    try {
      const none = { key: undefined, keyId: undefined };
      configurePaymentsKey({ payments: none, database: { embedded: true } as never, data: { dir, explicit: true } });
      const file = path.join(dir, 'payments.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const sealed = seal({ accountNumber: '42424242' });
      const text = readFileSync(file, 'utf8');
      configurePaymentsKey({ payments: none, database: { embedded: true } as never, data: { dir, explicit: true } });
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(unseal<{ accountNumber: string }>(sealed.secret, sealed.keyId).accountNumber).toBe('42424242');
      configurePaymentsKey({ payments: none, database: { embedded: false } as never, data: { dir, explicit: true } });
      expect(paymentsKeyPresent()).toBe(false);
      expect(() => seal({})).toThrow('PAYMENTS_KEY_MISSING');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the NACHA file', () => {
  it('is built by nach2 and read back with its entries and totals', async () => {
    const origin = { originatorName: 'Demo Housing', companyId: '1123456789', odfiRouting: '081000032', immediateDestination: '081000032', immediateDestinationName: 'Bank', immediateOrigin: '123456789', immediateOriginName: 'Demo', entryDescription: 'RENTASSIST' };
    const text = await buildNacha(origin, '2026-03-02', 7, [
      { name: 'José Núñez', routingNumber: '011000015', accountNumber: '12345', accountType: 'checking', amount: 123456, idNumber: 'C-1', traceNumber: traceNumberOf('081000032', 1) },
      { name: 'Bob', routingNumber: '021000021', accountNumber: '9876', accountType: 'savings', amount: 1, idNumber: 'C-2', traceNumber: traceNumberOf('081000032', 2) },
    ], new Date('2026-03-01T10:20:00Z'));
    const back = readNacha(text);
    expect(back).toMatchObject({ batches: 1, entryCount: 2, totalCredit: 123457, totalDebit: 0 });
    expect(back.entries.map((e) => [e.transactionCode, e.name, e.amount])).toEqual([['22', 'JOSE NUNEZ', 123456], ['32', 'BOB', 1]]);
    expect(text.split('\r\n').filter(Boolean).length % 10).toBe(0);
  });
});

describe("a batch's actions (role x state -> actions)", async () => {
  const { batchActions } = await import('./policy.js');
  const actor = (rules: Record<string, string[]>, superAdmin = false) =>
    ({ role: { superAdmin }, rules: new Map(Object.entries(rules).map(([k, v]) => [k, new Set(v)])) }) as unknown as Parameters<typeof batchActions>[0];
  const cases: Array<[string, Record<string, string[]>, 'open' | 'exported' | 'paid', string[]]> = [
    ['reader', { pagos: ['show'] }, 'exported', []],
    ['exporter, open', { pagos: ['show', 'export'] }, 'open', ['export']],
    ['exporter and updater, open', { pagos: ['show', 'export', 'update'] }, 'open', ['export']],
    ['exporter and updater, exported', { pagos: ['show', 'export', 'update'] }, 'exported', ['export', 'markPaid']],
    ['updater, exported', { pagos: ['show', 'update'] }, 'exported', ['markPaid']],
    ['exporter and updater, paid', { pagos: ['show', 'export', 'update'] }, 'paid', ['export']],
  ];
  it.each(cases)('%s', (_, rules, state, expected) => {
    expect(batchActions(actor(rules), state)).toEqual(expected);
  });
  it('a super-admin has every action the state allows', () => {
    expect(batchActions(actor({}, true), 'exported')).toEqual(['export', 'markPaid']);
  });
});
