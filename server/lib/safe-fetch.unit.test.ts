import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedUrlError, isBlockedAddress, safeFetchJson, toOptions } from './safe-fetch.js';

/**
 * A listener on loopback stands for everything an attacker would like the
 * server to call. Every refused URL must leave it untouched.
 */
let server: Server;
let port: number;
let hits = 0;
let respond: (res: import('node:http').ServerResponse) => void = (res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ info: [{ code: 'A', name: 'Alpha' }] }));
};
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    respond(res);
  });
  port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const allowed = (...hosts: string[]) => new Set(hosts);
async function refusal(url: string, options: Partial<Parameters<typeof safeFetchJson>[1]> = {}) {
  try {
    await safeFetchJson(url, { allowedHosts: allowed('options.example.org', '127.0.0.1', 'localhost', '::1'), ...options });
    return 'fetched';
  } catch (e) {
    return e instanceof BlockedUrlError ? e.reason : `other: ${(e as Error).message}`;
  }
}

describe('SSRF: refused before any connection', () => {
  it.each([
    [`http://127.0.0.1:PORT/x`, 'address'],
    [`http://localhost:PORT/x`, 'address'],
    [`http://[::1]:PORT/x`, 'address'],
    // Other spellings of loopback are normalised first, then refused as addresses even when listed.
    [`http://2130706433:PORT/x`, 'address'],
    [`http://0x7f.0.0.1:PORT/x`, 'address'],
    [`http://0177.0.0.1:PORT/x`, 'address'],
    [`http://127.1:PORT/x`, 'address'],
    [`http://[::ffff:127.0.0.1]:PORT/x`, 'host'],
    [`http://user:pass@options.example.org/x`, 'credentials'],
    [`file:///etc/passwd`, 'protocol'],
    [`gopher://options.example.org/x`, 'protocol'],
    [`http://evil.example.org:PORT/x`, 'host'],
    [`not a url`, 'url'],
  ])('%s -> %s', async (template, reason) => {
    const before = hits;
    expect(await refusal(template.replace('PORT', String(port)))).toBe(reason);
    expect(hits).toBe(before);
  });

  it('refuses an allowed name that resolves to a private or loopback address, in any of its answers', async () => {
    const before = hits;
    for (const answer of [['127.0.0.1'], ['10.1.2.3'], ['169.254.169.254'], ['93.184.216.34', '192.168.1.1'], ['::1'], ['fd00::1'], ['::ffff:10.0.0.1'], []]) {
      expect(await refusal(`http://options.example.org:${port}/x`, { resolve: async () => answer })).toBe('address');
    }
    expect(hits).toBe(before);
  });

  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '0.0.0.0', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', 'not-an-ip']) {
      expect(isBlockedAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isBlockedAddress(a), a).toBe(false);
  });
});

describe('an allowed host', () => {
  // The name resolves to a public address; the test dials the loopback listener in its place.
  const viaListener = { resolve: async () => ['93.184.216.34'], connectTo: () => ({ host: '127.0.0.1', port }) };

  it('is fetched, pinned to the checked address, with the name in the Host header', async () => {
    const body = await safeFetchJson('http://options.example.org/list', { allowedHosts: allowed('options.example.org'), ...viaListener });
    expect(toOptions(body)).toEqual([{ value: 'A', label: 'Alpha' }]);
  });

  it('does not follow redirects', async () => {
    respond = (res) => {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${port}/secret`);
      res.end();
    };
    expect(await refusal('http://options.example.org/list', viaListener)).toBe('redirect');
  });

  it('gives up on a body over the size cap and on a slow answer', async () => {
    respond = (res) => {
      res.setHeader('content-type', 'application/json');
      res.end(`[${'"x",'.repeat(100_000)}"x"]`);
    };
    expect(await refusal('http://options.example.org/list', { ...viaListener, maxBytes: 10_000 })).toBe('size');
    respond = () => {}; // never answers
    expect(await refusal('http://options.example.org/list', { ...viaListener, timeoutMs: 200 })).toBe('timeout');
  });

  it('refuses what is not JSON', async () => {
    respond = (res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<html>');
    };
    expect(await refusal('http://options.example.org/list', viaListener)).toBe('type');
  });
});

describe('toOptions', () => {
  it('reads the spec list answer, plain arrays and doc-wrapped items, ignoring junk', () => {
    expect(toOptions({ info: [{ doc: { code: '1', nombre: 'Uno' } }, { value: 2, label: 'Two' }, 'x', null, { nothing: true }] })).toEqual([
      { value: '1', label: 'Uno' },
      { value: '2', label: 'Two' },
      { value: 'x', label: 'x' },
    ]);
    expect(toOptions('nope')).toEqual([]);
  });
});
