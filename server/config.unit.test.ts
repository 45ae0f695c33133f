import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(3000);
    expect(c.http.publicUrl).toBe('http://localhost:3000');
    expect(c.data.dir).toBe(path.resolve('./data'));
    expect(c.database).toEqual({ url: undefined, embedded: true });
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.demoData).toBe(true);
  });

  it('uses DATABASE_URL instead of embedding, and turns demo data off by default then', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db.example:5432/app' });
    expect(c.database).toEqual({ url: 'postgres://u@db.example:5432/app', embedded: false });
    expect(c.demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/app', DEMO_DATA: 'on' }).demoData).toBe(true);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).http.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://cases.example.org/' }).http.publicUrl).toBe('https://cases.example.org');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).http.port).toBe(3000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['DATABASE_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://x'],
    ['SMTP_URL', 'http://mail'],
    ['DEMO_DATA', 'maybe'],
    ['LOG_LEVEL', 'loud'],
  ])('stops on %s=%s with a message naming the variable', (variable, value) => {
    let error: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
    expect((error as Error).message).not.toContain('\n');
  });
});
