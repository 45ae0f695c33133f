/**
 * Outbound fetches on behalf of form authors (select_multiple_external
 * options). An author controls the URL, so it could point at the metadata
 * service, the database or anything else on the private network: only hosts
 * an admin listed are fetched, only over http(s), never with credentials in
 * the URL, never to a private, loopback, link-local or otherwise reserved
 * address (however the address is written, and re-checked after DNS, with
 * the connection pinned to the checked address so DNS cannot change its
 * answer in between), with no redirects, a timeout and a size cap.
 *
 * `safePost` is the webhooks' (modules/webhooks/deliver.ts): any public host,
 * the same address checks, and private or loopback addresses only for hosts
 * the operator listed (WEBHOOK_ALLOW_HOSTS, never a tenant's setting);
 * link-local, unspecified, multicast and reserved addresses (the cloud
 * metadata service among them) are refused even then.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

export class BlockedUrlError extends Error {
  constructor(readonly reason: 'url' | 'protocol' | 'credentials' | 'host' | 'address' | 'redirect' | 'status' | 'size' | 'timeout' | 'type' | 'body' | 'connect') {
    super(`outbound fetch refused: ${reason}`);
    this.name = 'BlockedUrlError';
  }
}

// Two lists: Node matches IPv4 addresses against IPv6 rules through their mapped form.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blockedV4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) blockedV6.addSubnet(net, bits, 'ipv6');

/** True for any address a server must not be made to call. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // IPv4-mapped and -compatible forms carry an IPv4 address: judge that one.
    const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isBlockedAddress(mapped[1]);
    if (/^::ffff:/i.test(address)) return true; // mapped IPv4 in hex form
    return blockedV6.check(address, 'ipv6');
  }
  return blockedV4.check(address, 'ipv4');
}

export interface SafeFetchOptions {
  /** Hostnames (lower case) an admin allowed. */
  allowedHosts: ReadonlySet<string>;
  timeoutMs?: number;
  maxBytes?: number;
  /** For tests: how names resolve. */
  resolve?: (host: string) => Promise<string[]>;
  /** For tests: where a checked address actually connects. */
  connectTo?: (address: string, port: number) => { host: string; port: number };
}

const defaultResolve = async (host: string) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** GETs JSON from an allowed host; throws BlockedUrlError for anything refused. */
export async function safeFetchJson(rawUrl: string, options: SafeFetchOptions): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new BlockedUrlError('url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BlockedUrlError('protocol');
  if (url.username || url.password) throw new BlockedUrlError('credentials');
  // The URL parser has already normalised 0x7f.1, 2130706433, 0177.0.0.1 and friends to dotted form.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!options.allowedHosts.has(host)) throw new BlockedUrlError('host');
  const addresses = isIP(host) ? [host] : await (options.resolve ?? defaultResolve)(host).catch(() => []);
  if (addresses.length === 0 || addresses.some(isBlockedAddress)) throw new BlockedUrlError('address');
  const address = addresses[0];
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const target = options.connectTo?.(address, port) ?? { host: address, port };
  const timeoutMs = options.timeoutMs ?? 3_000;
  const maxBytes = options.maxBytes ?? 256 * 1024;

  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        host: target.host,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // The pinned address is dialled; the name still goes in Host and SNI.
        headers: { host: url.host, accept: 'application/json', 'user-agent': 'casebook-options/1' },
        servername: isIP(host) ? undefined : host,
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return reject(new BlockedUrlError('redirect'));
        }
        if (status !== 200) {
          res.resume();
          return reject(new BlockedUrlError('status'));
        }
        if (!/json/i.test(String(res.headers['content-type'] ?? ''))) {
          res.resume();
          return reject(new BlockedUrlError('type'));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          res.destroy();
          return reject(new BlockedUrlError('size'));
        }
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new BlockedUrlError('size'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new BlockedUrlError('body'));
          }
        });
        res.on('error', () => reject(new BlockedUrlError('body')));
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      reject(new BlockedUrlError('timeout'));
    }, timeoutMs);
    req.on('timeout', () => req.destroy(new BlockedUrlError('timeout')));
    req.on('error', (e) => reject(e instanceof BlockedUrlError ? e : new BlockedUrlError('timeout')));
    req.on('close', () => clearTimeout(deadline));
    req.end();
  });
}

// Refused whatever the operator listed: link-local (the metadata service at 169.254.169.254, fe80::/10), unspecified,
// multicast and reserved ranges. No operator means these when listing a host for a loopback receiver.
const neverV4 = new BlockList();
const neverV6 = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['169.254.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) neverV4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['fe80::', 10], ['ff00::', 8]] as const) neverV6.addSubnet(net, bits, 'ipv6');

/** True for an address no allow-list opens: link-local (cloud metadata), unspecified, multicast, reserved. */
export function isNeverAllowedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isNeverAllowedAddress(mapped[1]);
    if (/^::ffff:/i.test(address)) return true;
    return neverV6.check(address, 'ipv6');
  }
  return neverV4.check(address, 'ipv4');
}

export interface SafePostOptions {
  /** Hostnames (lower case) whose private or loopback addresses may be called (the operator's list). */
  privateHosts: ReadonlySet<string>;
  headers: Record<string, string>;
  timeoutMs?: number;
  /** The most of the answer read; a longer answer is refused ('size'). */
  maxBytes?: number;
  /** For tests: how names resolve. */
  resolve?: (host: string) => Promise<string[]>;
}

export interface SafePostAnswer {
  status: number;
  /** The answer's body as text (at most maxBytes). */
  body: string;
}

/**
 * Checks a URL a POST may go to, before any connection: http(s), no
 * credentials, and every address it resolves to public (or private for an
 * operator-listed host, never link-local or reserved). Returns the address to
 * dial; throws BlockedUrlError.
 */
export async function checkPostTarget(rawUrl: string, options: Pick<SafePostOptions, 'privateHosts' | 'resolve'>): Promise<{ url: URL; host: string; address: string }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new BlockedUrlError('url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BlockedUrlError('protocol');
  if (url.username || url.password) throw new BlockedUrlError('credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host) throw new BlockedUrlError('url');
  const addresses = isIP(host) ? [host] : await (options.resolve ?? defaultResolve)(host).catch(() => []);
  if (addresses.length === 0) throw new BlockedUrlError('address');
  const listed = options.privateHosts.has(host);
  if (addresses.some((a) => isNeverAllowedAddress(a) || (!listed && isBlockedAddress(a)))) throw new BlockedUrlError('address');
  return { url, host, address: addresses[0] };
}

/**
 * POSTs `body` to a checked URL: the connection pinned to the checked
 * address, no redirect followed (a 3xx is refused: 'redirect'), a deadline for
 * the whole exchange ('timeout') and a cap on the answer read ('size'). Any
 * status is answered (the caller judges it). A failure to connect throws
 * BlockedUrlError('connect') with the cause's message.
 */
export async function safePost(rawUrl: string, body: string, options: SafePostOptions): Promise<SafePostAnswer> {
  const { url, host, address } = await checkPostTarget(rawUrl, options);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      fn();
    };
    const fail = (e: BlockedUrlError) => settle(() => reject(e));
    const req = transport.request(
      {
        host: address,
        port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...options.headers, host: url.host, 'content-length': Buffer.byteLength(body) },
        servername: isIP(host) ? undefined : host,
        timeout: timeoutMs,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.destroy();
          return fail(new BlockedUrlError('redirect'));
        }
        if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
          res.destroy();
          return fail(new BlockedUrlError('size'));
        }
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            fail(new BlockedUrlError('size'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => settle(() => resolve({ status, body: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', () => fail(new BlockedUrlError('body')));
        res.on('close', () => fail(new BlockedUrlError('body')));
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      fail(new BlockedUrlError('timeout'));
    }, timeoutMs);
    req.on('timeout', () => {
      req.destroy();
      fail(new BlockedUrlError('timeout'));
    });
    req.on('error', (e) => {
      if (e instanceof BlockedUrlError) return fail(e);
      const error = new BlockedUrlError('connect');
      error.message = `outbound fetch failed: ${(e as NodeJS.ErrnoException).code ?? e.message}`;
      fail(error);
    });
    req.end(body);
  });
}

/** Options from the spec's list answer (`{ info: [...] }`) or a plain array: `{ value, label }`. */
export function toOptions(body: unknown): Array<{ value: string; label: string }> {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { info?: unknown }).info) ? (body as { info: unknown[] }).info : [];
  const out: Array<{ value: string; label: string }> = [];
  for (const item of list.slice(0, 5000)) {
    if (typeof item === 'string' || typeof item === 'number') out.push({ value: String(item), label: String(item) });
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      const doc = o.doc && typeof o.doc === 'object' ? (o.doc as Record<string, unknown>) : {};
      const value = o.value ?? o.code ?? o.id ?? doc.code ?? doc.id;
      const label = o.label ?? o.name ?? o.nombre ?? doc.name ?? doc.nombre ?? value;
      if ((typeof value === 'string' || typeof value === 'number') && (typeof label === 'string' || typeof label === 'number')) {
        out.push({ value: String(value).slice(0, 200), label: String(label).slice(0, 300) });
      }
    }
  }
  return out;
}
