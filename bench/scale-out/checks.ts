/**
 * What the database must show after the load (bench/scale-out.ts): every
 * acknowledged write is there, no task is left half-decided, every job ran
 * once, and the realtime events crossed instances.
 */
import pg from 'pg';
import type { SocketSession, Write } from './load.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const ids = (ws: Write[], key: string) => ws.map((w) => w[key]);

export async function checkWrites(db: pg.Client, writes: Write[]): Promise<Check[]> {
  const out: Check[] = [];
  const of = (what: Write['what']) => writes.filter((w) => w.what === what);

  // Comments: each acknowledged comment is there with its text and case.
  const comments = of('comment');
  const { rows: cRows } = await db.query<{ id: number; case_id: number; body: string }>('select id, case_id, body from comments where id = any($1::bigint[])', [ids(comments, 'commentId')]);
  const cById = new Map(cRows.map((r) => [Number(r.id), r]));
  const badComments = comments.filter((w) => {
    const r = cById.get(w.commentId as number);
    return !r || Number(r.case_id) !== w.caseId || r.body !== w.body;
  });
  out.push({ name: 'every acknowledged comment is in the database, with its text', ok: badComments.length === 0, detail: `${comments.length - badComments.length}/${comments.length}${badComments.length ? `; missing or different: ${badComments.slice(0, 5).map((w) => w.commentId).join(', ')}` : ''}` });

  // Decisions: each acknowledged accept or reject left its task in that state, with who and when, one audit row, and the tasks it said it created.
  const decisions = of('decision');
  const { rows: tRows } = await db.query<{ id: number; state: string; decided_at: Date | null; decided_by: number | null; events: number }>(
    `select t.id, t.state, t.decided_at, t.decided_by,
            (select count(*)::int from case_events e where e.task_id = t.id and e.action in ('task_accepted', 'task_rejected')) as events
       from tasks t where t.id = any($1::bigint[])`,
    [ids(decisions, 'taskId')],
  );
  const tById = new Map(tRows.map((r) => [Number(r.id), r]));
  const created = decisions.flatMap((w) => w.created as number[]);
  const { rows: createdRows } = await db.query<{ id: number }>('select id from tasks where id = any($1::bigint[])', [created]);
  const createdFound = new Set(createdRows.map((r) => Number(r.id)));
  const badDecisions = decisions.filter((w) => {
    const r = tById.get(w.taskId as number);
    return !r || r.state !== w.decision || !r.decided_at || !r.decided_by || r.events !== 1 || (w.created as number[]).some((id) => !createdFound.has(id));
  });
  out.push({
    name: 'every acknowledged decision is in the database (task state, decided by/at, one audit row, the next tasks it answered)',
    ok: badDecisions.length === 0,
    detail: `${decisions.length - badDecisions.length}/${decisions.length}${badDecisions.length ? `; wrong: ${badDecisions.slice(0, 5).map((w) => `${w.taskId}=${tById.get(w.taskId as number)?.state ?? 'missing'}`).join(', ')}` : ''}`,
  });

  // Files: each acknowledged upload is a row; submissions carry their document.
  const files = of('file');
  const { rows: fRows } = await db.query<{ id: string; size: string }>('select id::text, size from files where id = any($1::uuid[])', [ids(files, 'fileId')]);
  const fFound = new Set(fRows.map((r) => r.id));
  const missingFiles = files.filter((w) => !fFound.has(w.fileId as string));
  out.push({ name: 'every acknowledged upload is in the database', ok: missingFiles.length === 0, detail: `${files.length - missingFiles.length}/${files.length}` });

  const drafts = of('draft');
  const { rows: dRows } = await db.query<{ id: number }>('select id from cases where id = any($1::bigint[])', [ids(drafts, 'caseId')]);
  out.push({ name: 'every acknowledged new draft is in the database', ok: dRows.length === drafts.length, detail: `${dRows.length}/${drafts.length}` });

  const subs = of('submission');
  const { rows: sRows } = await db.query<{ id: number; serial: string; state: string; docs: string | null }>(
    `select id, serial, state, data->'documents'->0->>'id' as docs from cases where id = any($1::bigint[])`,
    [ids(subs, 'caseId')],
  );
  const sById = new Map(sRows.map((r) => [Number(r.id), r]));
  const badSubs = subs.filter((w) => {
    const r = sById.get(w.caseId as number);
    return !r || r.serial !== w.number || r.state === 'DRAFT' || r.docs !== w.fileId;
  });
  out.push({ name: 'every acknowledged submission is a numbered case with its document attached', ok: badSubs.length === 0, detail: `${subs.length - badSubs.length}/${subs.length}` });

  // Imports: each one that was started finished, and created each of its rows once.
  const imports = of('import');
  const iRows: Array<{ id: number; status: string; created: number; failed: number; cases: number }> = [];
  for (const w of imports) {
    const r = (
      await db.query<{ id: number; status: string; created: number; failed: number; cases: number }>(
        `select i.id, i.status, i.created, i.failed, (select count(*)::int from cases c where c.external_ref like $2 || '-%') as cases from case_imports i where i.id = $1`,
        [w.importId, w.ref],
      )
    ).rows[0];
    if (r) iRows.push(r);
  }
  const badImports = imports.filter((w) => {
    const r = iRows.find((x) => Number(x.id) === w.importId);
    return !r || r.status !== 'done' || r.created !== w.rows || r.cases !== w.rows || r.failed !== 0;
  });
  out.push({
    name: 'every started import finished once: each row created exactly once',
    ok: badImports.length === 0,
    detail: `${imports.length - badImports.length}/${imports.length}${badImports.length ? `; ${badImports.slice(0, 3).map((w) => JSON.stringify(iRows.find((x) => Number(x.id) === w.importId) ?? { id: w.importId, missing: true })).join(' ')}` : ''}`,
  });

  for (const [what, table] of [['case-export', 'case_exports'], ['data-tape', 'data_tape_exports']] as const) {
    const ex = of(what);
    const { rows } = await db.query<{ id: string; state: string }>(`select id, state from ${table} where id = any($1::text[])`, [ids(ex, 'exportId')]);
    const bad = ex.filter((w) => rows.find((r) => r.id === w.exportId)?.state !== 'done');
    out.push({ name: `every started ${what === 'case-export' ? 'case export' : 'data tape'} is done`, ok: bad.length === 0, detail: `${ex.length - bad.length}/${ex.length}${bad.length ? `; ${bad.map((w) => `${w.exportId}=${rows.find((r) => r.id === w.exportId)?.state ?? 'missing'}`).join(', ')}` : ''}` });
  }
  return out;
}

/** Tasks and cases that a cut transaction would leave between two states. `since`: the first case id of this run. */
export async function checkWorkflow(db: pg.Client, since: number): Promise<Check[]> {
  const out: Check[] = [];
  const q = async (sql: string) => (await db.query(sql, [since])).rows;
  const decidedWithoutTrace = await q(
    `select t.id from tasks t where t.case_id >= $1 and t.state in ('ACCEPTED', 'REJECTED')
       and (t.decided_at is null or t.decided_by is null
            or (select count(*) from case_events e where e.task_id = t.id and e.action = case t.state when 'ACCEPTED' then 'task_accepted' else 'task_rejected' end) = 0)`,
  );
  out.push({ name: 'no decided task without its decider, time and audit row', ok: decidedWithoutTrace.length === 0, detail: `${decidedWithoutTrace.length} found${decidedWithoutTrace.length ? `: ${decidedWithoutTrace.slice(0, 5).map((r) => r.id).join(', ')}` : ''}` });

  // A case still in progress has something open to work on.
  const stuck = await q(
    `select c.id from cases c where c.id >= $1 and c.state = 'PENDING'
       and not exists (select 1 from tasks t where t.case_id = c.id and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED', 'INCONSISTENCY'))
       and exists (select 1 from tasks t where t.case_id = c.id and t.code <> 'notify')
       and not exists (select 1 from tasks t where t.case_id = c.id and t.code = 'notify' and t.state = 'ACCEPTED')`,
  );
  out.push({ name: 'no open case left without an open task (a decision whose next tasks were not made)', ok: stuck.length === 0, detail: `${stuck.length} found${stuck.length ? `: ${stuck.slice(0, 5).map((r) => r.id).join(', ')}` : ''}` });

  // A decision that sends the case on made its next task in the same transaction: the accepted task's successors exist.
  const orphanAccepts = await q(
    `select t.id, t.code from tasks t join cases c on c.id = t.case_id
      where t.case_id >= $1 and t.state = 'ACCEPTED' and c.state = 'PENDING'
        and t.code in ('intake', 'documents', 'landlord')
        and not exists (select 1 from tasks n where n.case_id = t.case_id and n.id > t.id)`,
  );
  out.push({ name: 'every accepted intake, document and landlord task of an open case has its next task', ok: orphanAccepts.length === 0, detail: `${orphanAccepts.length} found` });

  const rejectsBack = await q(
    `select t.id from tasks t join cases c on c.id = t.case_id
      where t.case_id >= $1 and t.state = 'REJECTED' and c.state = 'PENDING' and t.code in ('documents', 'landlord', 'payment')
        and not exists (select 1 from tasks n where n.case_id = t.case_id and n.id > t.id)`,
  );
  out.push({ name: 'every task sent back made the task it goes back to', ok: rejectsBack.length === 0, detail: `${rejectsBack.length} found` });

  const dangling = await q(
    `select t.id from tasks t join cases c on c.id = t.case_id
      where t.case_id >= $1 and c.state in ('REJECTED', 'CLOSED') and t.state in ('UNASSIGNED', 'PENDING', 'BLOCKED')`,
  );
  out.push({ name: 'no open task on a case that has ended', ok: dangling.length === 0, detail: `${dangling.length} found` });

  const twice = await q(
    `select case_id, code, count(*) from tasks where case_id >= $1 and state in ('UNASSIGNED', 'PENDING') group by 1, 2 having count(*) > 1`,
  );
  out.push({ name: 'no step of a case open twice at once', ok: twice.length === 0, detail: `${twice.length} found` });
  return out;
}

export async function checkJobs(db: pg.Client, smtp: Map<string, number[]>, faultWindows: Array<{ start: number; end: number | null }>, loadStart: number): Promise<Check[]> {
  const out: Check[] = [];
  const states = (await db.query<{ name: string; state: string; n: number }>(`select name, state, count(*)::int as n from pgboss.job group by 1, 2 order by 1, 2`)).rows;
  const table = states.map((r) => `${r.name}/${r.state}=${r.n}`).join(', ');
  const failed = states.filter((r) => r.state === 'failed' || (r.name.endsWith('-failed') && r.n > 0));
  out.push({ name: 'no job failed or dead-lettered', ok: failed.length === 0, detail: failed.length ? failed.map((r) => `${r.name}/${r.state}=${r.n}`).join(', ') : table });
  // pg-boss's own `__pgboss__send-it` jobs are its cron's next sends, and the minute sweeps come every minute: not left over.
  const left = states.filter((r) => !r.name.startsWith('__pgboss__') && (['active', 'retry'].includes(r.state) || (r.state === 'created' && !['overdue-sweep', 'mail-sweep', 'mail-digest', 'rate-limit-sweep'].includes(r.name))));
  out.push({ name: 'no job left running or waiting after the load', ok: left.length === 0, detail: left.length ? left.map((r) => `${r.name}/${r.state}=${r.n}`).join(', ') : 'none' });

  // The minute sweeps: one job per minute however many instances schedule them. Grouped by the minute of created_on a
  // job sent a little early for the next minute would look like a second one, so: no two jobs of a sweep less than
  // 30 s apart, and no more jobs than minutes begun since the first.
  const sweeps = (
    await db.query<{ name: string; n: number; done: number; mingap: number | null; minutes: number }>(
      `select name, count(*)::int as n, count(*) filter (where state = 'completed')::int as done,
              extract(epoch from min(gap))::float as mingap,
              (extract(epoch from date_trunc('minute', max(created_on)) - date_trunc('minute', min(created_on))) / 60)::int + 1 as minutes
         from (select name, state, created_on, created_on - lag(created_on) over (partition by name order by created_on) as gap
                 from pgboss.job where name in ('overdue-sweep', 'mail-sweep')) j
        group by 1`,
    )
  ).rows;
  const twice = sweeps.filter((r) => (r.mingap !== null && r.mingap < 30) || r.n > r.minutes);
  out.push({
    name: 'each minute sweep ran once per minute across the instances',
    ok: twice.length === 0,
    detail: sweeps.map((r) => `${r.name}: ${r.n} jobs (${r.done} completed) over ${r.minutes} minutes, closest two ${r.mingap === null ? '-' : `${r.mingap.toFixed(1)} s`} apart`).join('; '),
  });

  // Mail: every queued message was sent, and the SMTP server received each Message-ID once.
  const mail = (await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from mail_outbox group by 1`)).rows;
  const notSent = mail.filter((r) => r.status !== 'sent' && r.status !== 'kept');
  out.push({ name: 'every message of the outbox was sent', ok: notSent.length === 0, detail: mail.map((r) => `${r.status}=${r.n}`).join(', ') || 'no mail' });
  const sent = (await db.query<{ id: number }>(`select id from mail_outbox where status = 'sent'`)).rows.map((r) => Number(r.id));
  const byOutbox = new Map<number, number[]>();
  for (const [mid, times] of smtp) {
    const m = /^<outbox-(\d+)@/.exec(mid);
    if (m) byOutbox.set(Number(m[1]), times);
  }
  const missing = sent.filter((id) => !byOutbox.has(id));
  const dup = [...byOutbox].filter(([, t]) => t.length > 1);
  // A send repeated because its instance was killed between the SMTP answer and the commit carries the same Message-ID
  // (outbox.ts).
  // So can a send whose commit was cut by a PostgreSQL restart after the SMTP server had answered: the job is retried,
  // and the message goes again with its Message-ID. Any other repeat is a job that ran twice.
  const dupOutside = dup.filter(([, t]) => !faultWindows.some((w) => t.some((at) => at >= w.start - 1000 && at <= (w.end ?? Number.POSITIVE_INFINITY) + 60_000)));
  out.push({
    name: 'every sent message reached the SMTP server once (by Message-ID), but for a send cut by a fault',
    ok: missing.length === 0 && dupOutside.length === 0,
    detail: `${sent.length} sent, ${byOutbox.size} received, ${missing.length} missing, ${dup.length} received twice${dup.length ? ` (${dup.map(([id, t]) => `outbox ${id} at +${((t[0] as number) - loadStart) / 1000} s and +${((t[1] as number) - loadStart) / 1000} s`).join('; ')}; ${dup.length - dupOutside.length} of them within a fault)` : ''}`,
  });
  return out;
}

interface Delivery {
  /** Per receiving socket connection that missed something: how many it missed. */
  missedBy: Map<SocketSession, number>;
  expected: number;
  delivered: number;
  /** Not heard, but the socket was told to refetch everything meanwhile (`resync` after its instance's listener reconnected, or `many`). */
  refetched: number;
  latencies: number[];
  /** Missed deliveries by 10-second slot of the load and by the receiving socket's instance. */
  missedAt: Map<number, number>;
  missedOn: Map<string, number>;
}

export interface RealtimeResult {
  checks: Check[];
  comment: Delivery & { pairs: Map<string, number> };
  task: Delivery;
}

/**
 * A comment or a decision acknowledged by instance A must reach every staff
 * socket connected to another instance for the whole time (from the request
 * to 5 s after its answer). Writes near the PostgreSQL restart are left out
 * (the listener reconnects and tells sockets to refetch instead).
 */
export function checkRealtime(writes: Write[], sessions: SocketSession[], excluded: Array<{ start: number; end: number | null }>, loadStart: number): RealtimeResult {
  const staff = sessions.filter((s) => s.staff && s.instance);
  const delivery = (): Delivery => ({ missedBy: new Map(), expected: 0, delivered: 0, refetched: 0, latencies: [], missedAt: new Map(), missedOn: new Map() });
  const res: RealtimeResult = { checks: [], comment: { ...delivery(), pairs: new Map() }, task: delivery() };
  for (const w of writes) {
    if (w.what !== 'comment' && w.what !== 'decision') continue;
    const sentAt = w.sentAt as number;
    if (excluded.some((x) => sentAt >= x.start - 5000 && sentAt <= (x.end ?? Number.POSITIVE_INFINITY) + 5000)) continue;
    const key = w.what === 'comment' ? `c${w.commentId}` : `t${w.taskId}`;
    const into = w.what === 'comment' ? res.comment : res.task;
    for (const s of staff) {
      if (s.user === w.user || s.instance === w.instance || s.connectedAt > sentAt || (s.disconnectedAt ?? Number.POSITIVE_INFINITY) < w.at + 5000) continue;
      into.expected++;
      // The first time this socket heard of the record at or after the write was sent (a task is heard of when made, too).
      const heard = s.heard.get(key)?.find((t) => t >= sentAt - 5);
      if (heard !== undefined) {
        into.delivered++;
        into.latencies.push(Math.max(0, heard - sentAt));
        if (w.what === 'comment') {
          const pair = `${w.instance}->${s.instance}`;
          res.comment.pairs.set(pair, (res.comment.pairs.get(pair) ?? 0) + 1);
        }
      } else if (s.refetchAll.some((t) => t >= sentAt - 5 && t <= w.at + 10_000)) {
        into.refetched++;
      } else {
        const slot = Math.floor((sentAt - loadStart) / 10_000) * 10;
        into.missedAt.set(slot, (into.missedAt.get(slot) ?? 0) + 1);
        into.missedOn.set(s.instance, (into.missedOn.get(s.instance) ?? 0) + 1);
        into.missedBy.set(s, (into.missedBy.get(s) ?? 0) + 1);
      }
    }
  }
  for (const [label, r] of [['comments', res.comment], ['task decisions', res.task]] as const) {
    const missed = r.expected - r.delivered - r.refetched;
    const slots = [...r.missedAt].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([t, n]) => `+${t}-${t + 10} s: ${n}`).join(', ');
    res.checks.push({
      name: `realtime: ${label} acknowledged by one instance reached the staff sockets on the other instances`,
      ok: r.expected > 0 && missed === 0,
      detail: `${r.delivered}/${r.expected} heard, ${r.refetched} told to refetch instead, ${missed} missed${missed ? ` (by time: ${slots}; by receiving instance: ${[...r.missedOn].map(([i, n]) => `${i} ${n}`).join(', ')}; by ${r.missedBy.size} socket connections, the most: ${[...r.missedBy].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([c, n]) => `user ${c.user} on ${c.instance} connected +${((c.connectedAt - loadStart) / 1000).toFixed(0)} s to ${c.disconnectedAt ? `+${((c.disconnectedAt - loadStart) / 1000).toFixed(0)} s` : 'the end'}, heard ${c.heard.size} records, missed ${n}`).join('; ')})` : ''}`,
    });
  }
  return res;
}
