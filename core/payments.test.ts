import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber, maskAccount, payeeDetailsSchema } from './payments.js';

describe('isValidRoutingNumber', () => {
  it('takes real ABA routing numbers and refuses a changed digit', () => {
    for (const ok of ['011000015', '021000021', '026009593', '121000358', '322271627']) expect(isValidRoutingNumber(ok)).toBe(true);
    for (const bad of ['011000016', '021000022', '12345678', '1234567890', 'abcdefghi', '000000000', '']) expect(isValidRoutingNumber(bad)).toBe(false);
  });
});

describe('payeeDetailsSchema', () => {
  it('needs the bank account for direct deposit, and checks the routing number', () => {
    const base = { name: 'Rosa Landlord', method: 'ach', accountType: 'checking' };
    expect(payeeDetailsSchema.safeParse({ ...base, routingNumber: '021000021', accountNumber: '1234-5678' }).data).toMatchObject({ routingNumber: '021000021', accountNumber: '12345678' });
    const bad = payeeDetailsSchema.safeParse({ ...base, routingNumber: '021000022', accountNumber: '12345678' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['routingNumber', 'payments.invalidRouting']]);
    expect(payeeDetailsSchema.safeParse({ ...base }).error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['accountNumber', 'routingNumber']);
  });
  it('needs a mailing address for a check', () => {
    expect(payeeDetailsSchema.safeParse({ name: 'R', method: 'check' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['address']);
    expect(payeeDetailsSchema.safeParse({ name: 'R', method: 'check', taxId: '12-3456789', address: { line1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' } }).data?.taxId).toBe('123456789');
  });
  it('masks all but the last four', () => {
    expect(maskAccount('123456789')).toBe('••••6789');
    expect(maskAccount(null)).toBeNull();
  });
});
