/**
 * The simulated people of the scale-out proof: each signs in through the
 * balancer from an address of its own (a loopback address bound as the
 * connection's source, so HAProxy's X-Forwarded-For names it and the app's
 * per-address limits count it alone), holds a Socket.IO connection as the
 * browser does (WebSocket only), and loops over a weighted mix of what its
 * role does, with a person's think time between steps.
 *
 * Every answer is counted per kind of request; every acknowledged write (a
 * 2xx) goes to the write log; every `changed` event a socket hears is kept
 * with the instance that socket was connected to.
 */
import { randomInt } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { DEMO_DECISIONS, demoAward } from '../../server/db/seed/workflow.js';
import { APPLICANT_MAPPING, applicantsCsv } from '../../tests/support/applicants-csv.js';

// ------------------------------------------------------------------ statistics

export type Outcome = 'ok' | 'refused' | 'session' | 'client' | 'retryable' | 'server';

export interface KindStats {
  count: number;
  ok: number;
  refused: number;
  session: number;
  client: number;
  /** 502/503/504 or a connection cut, inside a fault window (expected) and outside one (a failure). */
  retryableInWindow: number;
  retryableOutside: number;
  server: number;
  latencies: number[];
}

export interface Sample {
  at: number;
  kind: string;
  status: number;
  detail: string;
}

export class Stats {
  readonly kinds = new Map<string, KindStats>();
  /** The first answers of each unexpected (kind, status), to read when something fails. */
  readonly samples: Sample[] = [];
  private sampled = new Map<string, number>();
  /** [start, end] of each fault, plus a grace after it (HAProxy's checks take a few seconds to see a server back). */
  readonly windows: Array<{ name: string; start: number; end: number | null }> = [];

  inWindow(at: number, graceMs = 10_000): boolean {
    return this.windows.some((w) => at >= w.start && at <= (w.end ?? Number.POSITIVE_INFINITY) + graceMs);
  }

  record(kind: string, status: number, ms: number, at: number, detail: string): Outcome {
    let k = this.kinds.get(kind);
    if (!k) {
      k = { count: 0, ok: 0, refused: 0, session: 0, client: 0, retryableInWindow: 0, retryableOutside: 0, server: 0, latencies: [] };
      this.kinds.set(kind, k);
    }
    k.count++;
    let outcome: Outcome;
    if (status >= 200 && status < 400) outcome = 'ok';
    else if (status === 409 || status === 422) outcome = 'refused';
    else if (status === 401) outcome = 'session';
    else if (status <= 0 || status === 502 || status === 503 || status === 504) outcome = 'retryable';
    else if (status >= 500) outcome = 'server';
    else outcome = 'client';
    switch (outcome) {
      case 'ok':
        k.ok++;
        k.latencies.push(ms);
        break;
      case 'retryable':
        if (this.inWindow(at)) k.retryableInWindow++;
        else k.retryableOutside++;
        break;
      default:
        k[outcome]++;
    }
    if (outcome !== 'ok') {
      const key = `${kind} ${status}`;
      const n = this.sampled.get(key) ?? 0;
      if (n < 5) this.samples.push({ at, kind, status, detail: detail.slice(0, 300) });
      this.sampled.set(key, n + 1);
    }
    return outcome;
  }
}

export const percentile = (sorted: number[], p: number) => (sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number) : Number.NaN);

// ------------------------------------------------------------------ the write log

export interface Write {
  at: number;
  user: number;
  instance: string;
  what: 'comment' | 'decision' | 'file' | 'draft' | 'submission' | 'import' | 'case-export' | 'data-tape';
  [k: string]: unknown;
}

export class WriteLog {
  readonly writes: Write[] = [];
  constructor(private readonly file: string) {}
  add(w: Write): void {
    this.writes.push(w);
    appendFileSync(this.file, `${JSON.stringify(w)}\n`);
  }
}

// ------------------------------------------------------------------ realtime

export interface SocketSession {
  user: number;
  staff: boolean;
  instance: string;
  connectedAt: number;
  disconnectedAt: number | null;
  /** `c<comment id>` / `t<task id>` -> when this socket heard of it (a task is heard of at each change). */
  heard: Map<string, number[]>;
  resyncs: number;
  /** When the server told this socket to refetch everything: `resync`, or a `changed` with `many` (too many ids to list). */
  refetchAll: number[];
}

// ------------------------------------------------------------------ HTTP through the balancer

interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
  instance: string;
  ms: number;
  json<T = any>(): T;
}

/** Sees which server HAProxy chose for a WebSocket: its 101 answer carries X-Casebook-Instance. */
class SniffingAgent extends http.Agent {
  lastInstance = '';
  constructor(private readonly localAddress: string) {
    super({ keepAlive: false });
  }
  // The agent uses the socket returned; its callback is for asynchronous creation only.
  createConnection(options: http.ClientRequestArgs): net.Socket {
    const socket = net.createConnection({ ...(options as net.TcpNetConnectOpts), localAddress: this.localAddress });
    socket.once('data', (c: Buffer) => {
      const m = /\r\nx-casebook-instance:\s*(\S+)/i.exec(c.toString('latin1'));
      if (m) this.lastInstance = m[1] as string;
    });
    return socket;
  }
}

export interface Shared {
  base: string;
  stats: Stats;
  writes: WriteLog;
  sessions: SocketSession[];
  protocolId: number;
  password: string;
  deadline: number;
  /** The small PDF every applicant uploads. */
  pdf: Buffer;
  /** Set when the load ends: loops and polls stop. */
  stopped: boolean;
  /** Marks this run's comments, document numbers and import references. */
  runTag: string;
}

const think = () => 1000 + randomInt(4000);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pick = <T>(xs: readonly T[]): T => xs[randomInt(xs.length)] as T;
function weighted<T extends string>(table: Array<[T, number]>): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let r = Math.random() * total;
  for (const [k, w] of table) if ((r -= w) < 0) return k;
  return table[0][0];
}

const FIRST = ['María', 'José', 'Luisa', 'Carlos', 'Ana', 'Jorge', 'Camila', 'Andrés', 'Valentina', 'Felipe', 'Daniela', 'Santiago', 'Laura', 'Mateo'];
const LAST = ['Gómez', 'Rodríguez', 'Martínez', 'López', 'Hernández', 'Díaz', 'Torres', 'Ramírez', 'Moreno', 'Vargas', 'Castro', 'Rojas', 'Suárez'];

export type Role = 'applicant' | 'reviewer' | 'coordinator';

export class SimUser {
  private cookie = '';
  private readonly agent: http.Agent;
  private readonly wsAgent: SniffingAgent;
  private socket: Socket | null = null;
  private session: SocketSession | null = null;
  private cases: number[] = [];
  private myFiles: string[] = [];
  private openRoom: number | null = null;
  private seq = 0;

  constructor(
    readonly index: number,
    readonly email: string,
    readonly role: Role,
    readonly address: string,
    private readonly s: Shared,
  ) {
    // An idle connection is dropped after 8 s, before HAProxy's `timeout http-keep-alive 10s` closes it under a request being sent.
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, timeout: 8000, localAddress: address } as http.AgentOptions);
    this.wsAgent = new SniffingAgent(address);
  }

  // ---------------------------------------------------------------- requests

  private request(kind: string, method: string, path: string, body?: { json?: unknown; raw?: Buffer; type?: string }, timeoutMs = 60_000): Promise<Answer> {
    const started = performance.now();
    const payload = body?.json !== undefined ? Buffer.from(JSON.stringify(body.json)) : body?.raw;
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': 'en' };
    if (this.cookie) headers.cookie = this.cookie;
    if (payload) {
      headers['content-type'] = body?.type ?? 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<Answer>((resolve) => {
      const finish = (status: number, buf: Buffer, h: http.IncomingHttpHeaders, detail: string) => {
        const ms = performance.now() - started;
        const instance = String(h['x-casebook-instance'] ?? '');
        const answer: Answer = {
          status,
          body: buf,
          headers: h,
          instance,
          ms,
          json: () => JSON.parse(buf.toString('utf8')),
        };
        // Classified by when the answer came: a request sent just before a kill is cut by it.
        this.s.stats.record(kind, status, ms, Date.now(), `${method} ${path} -> ${detail}`);
        resolve(answer);
      };
      const req = http.request(`${this.s.base}${path}`, { method, headers, agent: this.agent, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          finish(res.statusCode ?? 0, buf, res.headers, `${res.statusCode} ${res.headers['x-casebook-instance'] ?? ''} ${res.statusCode && res.statusCode >= 400 ? buf.toString('utf8').slice(0, 200) : ''}`);
        });
        res.on('error', (e) => finish(0, Buffer.alloc(0), {}, `response error ${e.message}`));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => finish(e.message === 'timeout' ? -1 : 0, Buffer.alloc(0), {}, `connection error ${e.message}`));
      req.end(payload);
    });
  }

  /** A read that the person would simply try again after a moment when the balancer has no server or the database is away. */
  private async read(kind: string, path: string): Promise<Answer | null> {
    for (let attempt = 0; attempt < 5 && !this.s.stopped; attempt++) {
      const a = await this.request(kind, 'GET', path);
      if (a.status === 401) {
        await this.signIn();
        continue;
      }
      if (a.status <= 0 || a.status === 502 || a.status === 503 || a.status === 504) {
        await sleep(1000 + randomInt(2000));
        continue;
      }
      return a.status === 200 ? a : null;
    }
    return null;
  }

  private logWrite(a: Answer, what: Parameters<WriteLog['add']>[0]['what'], fields: Record<string, unknown>): void {
    this.s.writes.add({ at: Date.now(), user: this.index, instance: a.instance, what, ...fields });
  }

  // ---------------------------------------------------------------- session and socket

  async signIn(): Promise<boolean> {
    for (let attempt = 0; attempt < 20 && !this.s.stopped; attempt++) {
      const a = await this.request('auth.login', 'POST', '/api/auth/login', { json: { email: this.email, password: this.s.password } });
      if (a.status === 200) {
        this.cookie = (/sid=[^;]+/.exec(String(a.headers['set-cookie'] ?? '')) ?? [''])[0];
        await this.request('auth.session', 'GET', '/api/auth/session');
        this.connectSocket();
        return true;
      }
      await sleep(1000 + randomInt(2000));
    }
    return false;
  }

  private connectSocket(): void {
    if (this.socket) {
      // A new session: the next handshake carries the new cookie; the socket of the old one is closed by the server.
      (this.socket.io.opts.extraHeaders as Record<string, string>).cookie = this.cookie;
      // Not while a try is under way (the manager reconnecting, or a connect already asked for): a second connect()
      // would open a second server-side socket on the same connection.
      if (!this.socket.connected && !this.socket.active) this.socket.connect();
      return;
    }
    const socket = connect(this.s.base, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: this.cookie },
      agent: this.wsAgent as unknown as string,
      reconnectionDelay: 500,
      reconnectionDelayMax: 10_000,
    });
    socket.on('connect', () => {
      if (this.session && this.session.disconnectedAt === null) this.session.disconnectedAt = Date.now();
      this.session = { user: this.index, staff: this.role !== 'applicant', instance: this.wsAgent.lastInstance, connectedAt: Date.now(), disconnectedAt: null, heard: new Map(), resyncs: 0, refetchAll: [] };
      this.s.sessions.push(this.session);
      if (this.openRoom) void socket.emitWithAck('join', { kind: 'case', id: this.openRoom }).catch(() => {});
    });
    socket.on('disconnect', (reason) => {
      if (this.session) this.session.disconnectedAt = Date.now();
      this.session = null;
      // As web/src/lib/realtime.tsx: the server closed it (its instance stopping, a logout): one more try, authorised afresh.
      if (reason === 'io server disconnect' && !this.s.stopped) setTimeout(() => !this.s.stopped && !socket.connected && !socket.active && socket.connect(), 300 + randomInt(700));
    });
    socket.on('connect_error', (err) => {
      // Signed out: the browser stops and shows the sign-in page; here the next request's 401 signs in again.
      if (err.message === 'UNAUTHORIZED') socket.disconnect();
    });
    socket.on('changed', (e: { kind: string; ids: number[]; many?: boolean }) => {
      const session = this.session;
      if (!session) return;
      if (e.many && (e.kind === 'comment' || e.kind === 'task')) session.refetchAll.push(Date.now());
      const prefix = e.kind === 'comment' ? 'c' : e.kind === 'task' ? 't' : null;
      if (!prefix) return;
      const now = Date.now();
      for (const id of e.ids) {
        const list = session.heard.get(prefix + id);
        if (list) list.push(now);
        else session.heard.set(prefix + id, [now]);
      }
    });
    socket.on('resync', () => {
      if (!this.session) return;
      this.session.resyncs++;
      this.session.refetchAll.push(Date.now());
    });
    this.socket = socket;
  }

  close(): void {
    this.socket?.disconnect();
    if (this.session) this.session.disconnectedAt = Date.now();
    this.agent.destroy();
  }

  // ---------------------------------------------------------------- the loop

  async run(): Promise<void> {
    // People arrive over the first half minute, not all in the same second.
    await sleep(randomInt(30_000));
    if (!(await this.signIn())) return;
    while (!this.s.stopped && Date.now() < this.s.deadline) {
      await sleep(think());
      if (this.s.stopped || Date.now() >= this.s.deadline) break;
      try {
        await (this.role === 'applicant' ? this.applicantStep() : this.staffStep());
      } catch (e) {
        this.s.stats.record('bench.exception', 0, 0, Date.now(), String((e as Error).stack ?? e));
      }
    }
  }

  private async staffStep(): Promise<void> {
    const coordinator = this.role === 'coordinator';
    const step = weighted<string>([
      ['list', 22],
      ['search', 12],
      ['open', 20],
      ['comment', 12],
      ['decide', 26],
      ['relogin', 1],
      ['export-csv', coordinator ? 0.6 : 0],
      ['export-xlsx', coordinator ? 0.3 : 0],
      ['data-tape', coordinator ? 0.2 : 0],
      ['import', coordinator ? 0.3 : 0],
    ]);
    switch (step) {
      case 'list':
        return this.listCases();
      case 'search':
        return this.searchCases();
      case 'open':
        return this.openCase();
      case 'comment':
        return this.comment();
      case 'decide':
        return this.decide();
      case 'relogin':
        return this.relogin();
      case 'export-csv':
        return this.exportCsv();
      case 'export-xlsx':
        return this.exportBackground();
      case 'data-tape':
        return this.dataTape();
      case 'import':
        return this.importCases();
    }
  }

  private async applicantStep(): Promise<void> {
    const step = weighted<string>([
      ['my-cases', 30],
      ['open-own', 25],
      ['apply', 12],
      ['download', 12],
      ['relogin', 1],
    ]);
    switch (step) {
      case 'my-cases':
        return this.listCases();
      case 'open-own':
        return this.openCase();
      case 'apply':
        return this.apply();
      case 'download':
        return this.download();
      case 'relogin':
        return this.relogin();
    }
  }

  private async relogin(): Promise<void> {
    await this.request('auth.logout', 'POST', '/api/auth/logout');
    this.cookie = '';
    await this.signIn();
  }

  private remember(items: Array<{ id: number }>): void {
    for (const i of items) if (!this.cases.includes(i.id)) this.cases.push(i.id);
    if (this.cases.length > 60) this.cases = this.cases.slice(-60);
  }

  private async listCases(): Promise<void> {
    const a = await this.read('cases.list', `/api/cases?page=1&limit=25&count=false&sortBy=created_at&descending=true`);
    if (!a) return;
    this.remember(a.json<{ items: Array<{ id: number }> }>().items);
    await this.read('cases.count', '/api/cases/count');
  }

  private async searchCases(): Promise<void> {
    const term = Math.random() < 0.7 ? pick(LAST) : pick(FIRST);
    const a = await this.read('cases.search', `/api/cases?page=1&limit=25&count=false&search=${encodeURIComponent(term)}`);
    if (a) this.remember(a.json<{ items: Array<{ id: number }> }>().items);
  }

  private async openCase(): Promise<void> {
    if (!this.cases.length) return this.listCases();
    const id = pick(this.cases.slice(-25));
    const a = await this.read('cases.show', `/api/cases/${id}`);
    if (!a) return;
    if (this.role === 'applicant') {
      await this.read('cases.public-timeline', `/api/cases/${id}/public-timeline`);
      return;
    }
    await Promise.all([this.read('comments.thread', `/api/cases/${id}/comments`), this.read('tasks.timeline', `/api/cases/${id}/timeline`)]);
    // The case page joins the case's room while it is shown (realtime/policy authorises it).
    if (this.socket?.connected) {
      if (this.openRoom && this.openRoom !== id) this.socket.emit('leave', { kind: 'case', id: this.openRoom });
      void this.socket.timeout(5000).emitWithAck('join', { kind: 'case', id }).catch(() => {});
    }
    this.openRoom = id;
  }

  private async comment(): Promise<void> {
    if (!this.cases.length) return this.listCases();
    const id = this.openRoom ?? pick(this.cases.slice(-25));
    const body = `${this.s.runTag} u${this.index} #${++this.seq}: checked the lease and the pay stubs; waiting for the landlord's confirmation.`;
    const a = await this.request('comments.create', 'POST', `/api/cases/${id}/comments`, { json: { body } });
    if (a.status === 201) this.logWrite(a, 'comment', { caseId: id, commentId: a.json<{ id: number }>().id, body, sentAt: Date.now() - Math.round(a.ms) });
    else if (a.status === 401) await this.signIn();
  }

  private async decide(): Promise<void> {
    const list = await this.read('tasks.pending', '/api/tasks/pending?page=1&limit=20&sortBy=due_at');
    if (!list) return;
    const items = list.json<{ items: Array<{ id: number; code: string; actions: string[] }> }>().items.filter((t) => t.actions.includes('accept'));
    if (!items.length) return;
    const t = pick(items);
    const detail = await this.read('tasks.show', `/api/tasks/${t.id}`);
    if (!detail) return;
    const { version, caseId } = detail.json<{ version: number; caseId: number }>();
    await sleep(1000 + randomInt(3000)); // reads the task, fills its form
    // Sent back or refused now and then; not the landlord check, whose rejection reopens intake while eligibility runs in parallel.
    const reject = Math.random() < 0.1 && ['intake', 'documents', 'payment'].includes(t.code);
    const { intakeOk, docsOk, eligible, landlordOk, pay } = DEMO_DECISIONS;
    const amount = Math.random() < 0.9 ? 300 + randomInt(4000) : 6000;
    const data: Record<string, unknown> = { intake: intakeOk, documents: docsOk, eligibility: eligible, landlord: landlordOk, payment: pay(amount) }[t.code] ?? {};
    // Payment approval sets the case's award (issue 23), as the demo's people do.
    const award = t.code === 'payment' ? { award: demoAward(amount, caseId) } : {};
    const a = reject
      ? await this.request('tasks.reject', 'POST', `/api/tasks/${t.id}/reject`, {
          json: { version, reason: 'The lease is missing its signature page.', ...(t.code === 'intake' ? { data: { complete: 'no', missingInfo: 'Signed lease' } } : {}) },
        })
      : await this.request('tasks.accept', 'POST', `/api/tasks/${t.id}/accept`, { json: { version, data, ...award } });
    if (a.status === 200) {
      const answer = a.json<{ created: number[]; notEligible?: boolean }>();
      this.logWrite(a, 'decision', { taskId: t.id, caseId, code: t.code, decision: reject ? 'REJECTED' : 'ACCEPTED', created: answer.created, sentAt: Date.now() - Math.round(a.ms) });
    } else if (a.status === 401) await this.signIn();
  }

  private async uploadPdf(): Promise<{ id: string; name: string; size: number } | null> {
    const boundary = `----casebook${randomInt(1e9)}`;
    const name = `lease-${this.index}-${++this.seq}.pdf`;
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
      this.s.pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const a = await this.request('files.upload', 'POST', '/api/files', { raw, type: `multipart/form-data; boundary=${boundary}` });
    if (a.status !== 201) return null;
    const f = a.json<{ id: string; name: string; size: number }>();
    this.logWrite(a, 'file', { fileId: f.id, name: f.name, size: f.size });
    this.myFiles.push(f.id);
    return { id: f.id, name: f.name, size: f.size };
  }

  /** An applicant's new application: a draft, its lease uploaded and attached, then submitted (which starts the workflow). */
  private async apply(): Promise<void> {
    const first = pick(FIRST);
    const last = pick(LAST);
    const n = ++this.seq;
    const start = await this.request('drafts.create', 'POST', '/api/cases/drafts', { json: { protocolId: this.s.protocolId, data: { firstName: first, lastName: last } } });
    if (start.status !== 201) return;
    const draft = start.json<{ id: number; version: number }>();
    this.logWrite(start, 'draft', { caseId: draft.id });
    await sleep(1000 + randomInt(3000)); // types the form
    const file = await this.uploadPdf();
    if (!file) return;
    const data = {
      firstName: first, lastName: last, documentType: 'CC', documentNumber: `${this.s.runTag}${this.index}x${n}`.slice(0, 20), email: `a${this.index}.${n}@bench.test`, phone: '3001234567',
      departamento: '11', municipio: '11001', zipCode: '11001', payRent: 500 + randomInt(1500),
      householdInformation: [{ memberName: `${first} ${last}`, relationship: 'self', age: 25 + randomInt(50) }], documents: [file],
    };
    const saved = await this.request('drafts.save', 'PUT', `/api/cases/drafts/${draft.id}`, { json: { data } });
    if (saved.status !== 200) return;
    const sub = await this.request('drafts.submit', 'POST', `/api/cases/drafts/${draft.id}/submit`, { json: { data } });
    if (sub.status === 200) {
      const { id, number } = sub.json<{ id: number; number: string }>();
      this.logWrite(sub, 'submission', { caseId: id, number, fileId: file.id });
      this.cases.push(id);
    }
  }

  /** Opens one of its documents: a link from one instance, the bytes from whichever instance the balancer picks. */
  private async download(): Promise<void> {
    if (!this.myFiles.length) return this.apply();
    const id = pick(this.myFiles);
    const link = await this.read('files.link', `/api/files/${id}/link`);
    if (!link) return;
    const url = new URL(link.json<{ url: string }>().url, this.s.base);
    const a = await this.read('files.download', `${url.pathname}${url.search}`);
    if (a && a.body.length !== this.s.pdf.length) this.s.stats.record('files.download-bytes', 500, 0, Date.now(), `file ${id}: ${a.body.length} bytes, expected ${this.s.pdf.length}`);
  }

  private async exportCsv(): Promise<void> {
    await this.read('cases.export-csv', '/api/cases/export?format=csv&sortBy=created_at&descending=true');
  }

  private async poll(kind: string, path: string, done: (body: { state?: string; status?: string }) => boolean, timeoutMs = 120_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end && !this.s.stopped) {
      await sleep(2000);
      const a = await this.read(kind, path);
      if (a && done(a.json())) return true;
    }
    return false;
  }

  private async exportBackground(): Promise<void> {
    const a = await this.request('cases.export-start', 'POST', '/api/cases/exports', { json: { format: 'xlsx', query: { sortBy: 'created_at', descending: 'true' } } });
    if (a.status !== 202) return;
    const id = a.json<{ id: string }>().id;
    this.logWrite(a, 'case-export', { exportId: id });
    if (await this.poll('cases.export-status', `/api/cases/exports/${id}`, (b) => b.state === 'done' || b.state === 'failed')) await this.read('cases.export-file', `/api/cases/exports/${id}/file`);
  }

  private async dataTape(): Promise<void> {
    const a = await this.request('datatape.start', 'POST', '/api/data-tape/exports', { json: { protocolId: this.s.protocolId, format: 'csv' } });
    if (a.status !== 202) return;
    const id = a.json<{ id: string }>().id;
    this.logWrite(a, 'data-tape', { exportId: id });
    if (await this.poll('datatape.status', `/api/data-tape/exports/${id}`, (b) => b.state === 'done' || b.state === 'failed')) await this.read('datatape.file', `/api/data-tape/exports/${id}/file`);
  }

  /** A small bulk import (10 applicants from a partner's spreadsheet): upload, run, follow it to the end. */
  private async importCases(): Promise<void> {
    const run = `${this.s.runTag}i${this.index}x${++this.seq}`;
    const csv = Buffer.from(applicantsCsv(run, 10), 'utf8');
    const up = await this.request('imports.upload', 'POST', `/api/cases/imports?protocolId=${this.s.protocolId}&fileName=${run}.csv`, { raw: csv, type: 'text/csv' });
    if (up.status !== 201) return;
    const id = up.json<{ id: number }>().id;
    const a = await this.request('imports.run', 'POST', `/api/cases/imports/${id}/run`, { json: APPLICANT_MAPPING });
    if (a.status !== 202) return;
    this.logWrite(a, 'import', { importId: id, rows: 10, ref: run });
    await this.poll('imports.status', `/api/cases/imports/${id}`, (b) => b.status === 'done' || b.status === 'interrupted' || b.status === 'rejected');
  }
}
