import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  proc: ChildProcess;
  output(): string;
  /** Resolves when the output matches, rejects when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

export interface StartOptions {
  nodeArgs?: string[];
  /** The checkout to start (default: this one). */
  cwd?: string;
  /** Run as another user (tests as root). */
  uid?: number;
  gid?: number;
}

/** Starts `node --import tsx server/main.ts` as `npm start` does, with the given environment. */
export function startServer(env: Record<string, string>, { nodeArgs = [], cwd = ROOT, uid, gid }: StartOptions = {}): ServerProcess {
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(cwd, 'server/main.ts')], {
    cwd,
    // The demo's six months of history only where a test asks for it (the browser journeys' server does): a
    // restart or a fault needs no reports, and each fresh start would pay some 10 s for them.
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO_HISTORY: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid !== undefined ? { uid, gid } : {}),
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString('utf8');
    for (const l of listeners) l();
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out);
          if (m) {
            cleanup();
            resolve(m[0]);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${out}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        exited.then((code) => {
          if (!pattern.test(out)) {
            cleanup();
            reject(new Error(`server exited (${code}) before ${pattern}; output:\n${out}`));
          }
        });
        check();
      });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
