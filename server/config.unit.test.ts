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
    expect(c.database).toEqual({ url: undefined, embedded: true, readUrl: undefined, readAfterWriteSeconds: 5 });
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.demoData).toBe(true);
  });

  it('uses DATABASE_URL instead of embedding, and turns demo data off by default then', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db.example:5432/app' });
    expect(c.database).toEqual({ url: 'postgres://u@db.example:5432/app', embedded: false, readUrl: undefined, readAfterWriteSeconds: 5 });
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

  it('reads reports and lists from DATABASE_READ_URL, a replica of DATABASE_URL, after READ_AFTER_WRITE_SECONDS', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@primary.example/app', DATABASE_READ_URL: 'postgresql://u@replica.example/app' });
    expect(c.database).toEqual({ url: 'postgres://u@primary.example/app', embedded: false, readUrl: 'postgresql://u@replica.example/app', readAfterWriteSeconds: 5 });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/app', DATABASE_READ_URL: 'postgres://u@r/app', READ_AFTER_WRITE_SECONDS: '30' }).database.readAfterWriteSeconds).toBe(30);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/app', READ_AFTER_WRITE_SECONDS: '0' }).database.readAfterWriteSeconds).toBe(0);
  });

  it('refuses DATABASE_READ_URL without DATABASE_URL: the embedded database has no replica', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@replica.example/app' })).toThrow(ConfigError);
    try {
      loadConfig({ DATABASE_READ_URL: 'postgres://u@replica.example/app' });
    } catch (e) {
      expect((e as ConfigError).variable).toBe('DATABASE_READ_URL');
      expect((e as Error).message).toMatch(/DATABASE_READ_URL needs DATABASE_URL/);
    }
    // Empty counts as unset, as for every variable.
    expect(loadConfig({ DATABASE_READ_URL: '' }).database.readUrl).toBeUndefined();
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
    ['DATABASE_READ_URL', 'mysql://replica/app'],
    ['DATABASE_READ_URL', 'replica.example'],
    ['READ_AFTER_WRITE_SECONDS', '2.5'],
    ['READ_AFTER_WRITE_SECONDS', '601'],
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

describe('FILES_URL', () => {
  it('keeps files in the database with DATABASE_URL and on disk when embedded, by default', () => {
    expect(loadConfig({}).files).toEqual({ store: 'disk', s3: undefined });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db.example/app' }).files).toEqual({ store: 'database', s3: undefined });
    expect(loadConfig({ FILES_URL: '' }).files.store).toBe('disk');
  });

  it('takes disk or database in either mode', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db.example/app', FILES_URL: 'disk' }).files.store).toBe('disk');
    expect(loadConfig({ FILES_URL: ' Database ' }).files.store).toBe('database');
  });

  it('reads an S3 bucket: https by default, plain http with s3+http, the secret percent-decoded, us-east-1 unless ?region=', () => {
    expect(loadConfig({ FILES_URL: 's3://AKIA123:se%2Fcr%40et@s3.example.org/case-files?region=eu-west-1' }).files).toEqual({
      store: 's3',
      s3: { endpoint: 'https://s3.example.org', bucket: 'case-files', region: 'eu-west-1', accessKeyId: 'AKIA123', secretAccessKey: 'se/cr@et' },
    });
    expect(loadConfig({ FILES_URL: 's3+http://minio:minio-secret@127.0.0.1:9000/files/' }).files.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000', bucket: 'files', region: 'us-east-1', accessKeyId: 'minio', secretAccessKey: 'minio-secret',
    });
  });

  it.each([
    ['a word it does not know', 'memory'],
    ['another scheme', 'https://a:b@s3.example.org/bucket'],
    ['no credentials', 's3://s3.example.org/bucket'],
    ['no secret', 's3://key@s3.example.org/bucket'],
    ['no bucket', 's3://key:topsecret@s3.example.org/'],
    ['a path past the bucket', 's3://key:topsecret@s3.example.org/bucket/sub'],
    ['a bucket name S3 refuses', 's3://key:topsecret@s3.example.org/Bucket_Name'],
    ['an unknown option', 's3://key:topsecret@s3.example.org/bucket?pathStyle=1'],
    ['a broken escape', 's3://key:top%zzsecret@s3.example.org/bucket'],
  ])('stops on %s with one line naming FILES_URL, never showing the secret', (_what, value) => {
    let error: unknown;
    try {
      loadConfig({ FILES_URL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('FILES_URL');
    expect((error as Error).message).toMatch(/^Invalid configuration: FILES_URL /);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).not.toContain('topsecret');
  });
});
