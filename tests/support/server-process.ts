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

/** Starts `node --import tsx server/main.ts` as `npm start` does, with the given environment. */
export function startServer(env: Record<string, string>, { nodeArgs = [] as string[] } = {}): ServerProcess {
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
