import { describe, expect, it } from 'vitest';
import { sameName } from './commands.js';

describe('sameName (the attestation’s typed name against the party’s)', () => {
  it('ignores case, spaces, punctuation and missing accents', () => {
    expect(sameName('Rosa Díaz', 'rosa  diaz')).toBe(true);
    expect(sameName('José Peña-Ruiz', 'Jose Pena Ruiz')).toBe(true);
    expect(sameName("O'Brien", 'obrien')).toBe(true);
  });
  it('refuses another name and an empty one', () => {
    expect(sameName('Rosa Díaz', 'Rosa Díez')).toBe(false);
    expect(sameName('', '')).toBe(false);
  });
});
