import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWebBuild } from '../../server/web-build.js';
import { freePort, startServer } from './server-process.js';

/** Once per run: the real product (`npm start`'s entry) on a fresh DATA_DIR, for the browser journeys. */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  await ensureWebBuild(() => {});
  const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'casebook-e2e-'));
  const port = await freePort();
  // The webhooks journey's receiver listens on loopback: the operator's list lets deliveries reach it.
  const server = startServer({ DATA_DIR: dir, PORT: String(port), DEMO_HISTORY: 'on', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  await server.waitFor(/is running at/, 120_000);
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  return async () => {
    server.proc.kill('SIGTERM');
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  };
}
