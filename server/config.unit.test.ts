import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATA_DIR, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(3000);
    expect(c.http.publicUrl).toBe('http://localhost:3000');
    // The checkout's own data/, whatever the working directory.
    expect(c.data).toEqual({ dir: DEFAULT_DATA_DIR, explicit: false });
    expect(DEFAULT_DATA_DIR).toBe(path.resolve(import.meta.dirname, '..', 'data'));
    expect(c.database).toEqual({ url: undefined, embedded: true });
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.demoData).toBe(true);
  });

  it('uses DATABASE_URL instead of embedding, and turns demo data off by default then', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db.example:5432/app' });
    expect(c.database).toEqual({ url: 'postgres://u@db.example:5432/app', embedded: false });
    expect(c.demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/app', DEMO_DATA: 'on' }).demoData).toBe(true);
    // The demo's six months of history come with it unless turned off.
    expect(c.demoHistory).toBe(true);
    expect(loadConfig({ DEMO_HISTORY: 'off' }).demoHistory).toBe(false);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).http.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://cases.example.org/' }).http.publicUrl).toBe('https://cases.example.org');
  });

  it('takes a set DATA_DIR as given, relative to the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'somewhere' }).data).toEqual({ dir: path.resolve('somewhere'), explicit: true });
  });

  it('logs JSON lines unless a person reads a terminal, and LOG_FORMAT decides when set', () => {
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });

  it('trusts no proxy by default; TRUST_PROXY lists addresses, CIDRs and range names', () => {
    expect(loadConfig({}).http.trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: 'off' }).http.trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 192.168.0.0/16 ,::1,fd00::/8, Loopback' }).http.trustProxy).toEqual([
      '10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback',
    ]);
  });

  it('makes cookies secure when PUBLIC_URL is https', () => {
    expect(loadConfig({}).http.secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://cases.example.org' }).http.secureCookies).toBe(true);
  });

  it('drains for SHUTDOWN_DRAIN_SECONDS before closing (none by default)', () => {
    expect(loadConfig({}).http.drainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '10' }).http.drainSeconds).toBe(10);
  });

  it('serves metrics only when METRICS is on, with METRICS_TOKEN when set', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: false, token: undefined });
    expect(loadConfig({ METRICS: 'on', METRICS_TOKEN: 'a-long-scrape-token' }).metrics).toEqual({ enabled: true, token: 'a-long-scrape-token' });
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
    ['LOG_FORMAT', 'xml'],
    ['TRUST_PROXY', 'on'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '*'],
    ['TRUST_PROXY', '10.0.0.1,proxy.example'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.300'],
    ['METRICS', 'sometimes'],
    ['METRICS_TOKEN', 'short'],
    ['SHUTDOWN_DRAIN_SECONDS', '-1'],
    ['SHUTDOWN_DRAIN_SECONDS', '121'],
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
