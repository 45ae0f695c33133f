import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, type ServerProcess, startServer } from './server-process.js';
import { type ReceivedMail, startSmtp } from './smtp.js';

/**
 * A Casebook instance of a journey's own, with its mail going to an SMTP
 * server on loopback (for journeys that follow a mailed link: password
 * recovery, agency registration, a landlord's invitation). The embedded
 * database lives in a fresh DATA_DIR (in memory when /dev/shm exists), gone
 * at `stop`.
 */
export interface InstanceWithMail {
  /** http://127.0.0.1:<port>, also its PUBLIC_URL (the links mailed point here). */
  base: string;
  server: ServerProcess;
  mails: ReceivedMail[];
  /** The first mail to `to` whose text or subject matches `pattern`, waiting for it. */
  mailFor(to: string, pattern: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** The first match of `link` in a mail to `to`, waiting for it. */
  linkFor(to: string, link: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export async function startInstanceWithMail(name: string, env: Record<string, string> = {}): Promise<InstanceWithMail> {
  const smtp = await startSmtp();
  const dataDir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), `casebook-${name}-`));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({ DATA_DIR: dataDir, PORT: String(port), SMTP_URL: smtp.url, PUBLIC_URL: base, ...env });
  const stop = async () => {
    server.proc.kill('SIGTERM');
    await server.exited;
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.waitFor(/is running at/, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  const mailFor = async (to: string, pattern: RegExp, timeoutMs = 30_000): Promise<ReceivedMail> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const mail = smtp.mails.find((m) => m.to.includes(to) && (pattern.test(m.text) || pattern.test(m.subject)));
      if (mail) return mail;
      if (Date.now() > end) throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs} ms (got ${smtp.mails.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    base,
    server,
    mails: smtp.mails,
    mailFor,
    linkFor: async (to, link, timeoutMs) => (link.exec((await mailFor(to, link, timeoutMs)).text) as RegExpExecArray)[0],
    stop,
  };
}
