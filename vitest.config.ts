import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, five tiers: pure unit tests (core, server), web components
 * (jsdom), API tests through app.inject on a real PostgreSQL, process
 * lifecycle (the real server started, killed and restarted), and browser
 * journeys (Playwright in Debian's Chromium against the real server).
 *
 * Three groups, one after the other: unit, web and API files two at a time
 * (Vitest's default on two cores is one: measured, the web tier took 433 s
 * one at a time and 307 s two at a time); then the lifecycle files, one at a
 * time (each starts and kills servers); then the browser journeys, one at a
 * time against the one shared server (two Chromiums and the server on two
 * cores make journeys flaky).
 */
const PARALLEL = { maxWorkers: 2, sequence: { groupOrder: 0 } };
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0-test') },
  test: {
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['core/**/*.test.ts', 'server/**/*.unit.test.ts', 'scripts/**/*.test.ts'], environment: 'node', ...PARALLEL },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          ...PARALLEL,
          environment: 'jsdom',
          setupFiles: ['tests/support/web-setup.ts'],
          // Rendering MUI pages in jsdom takes seconds on a busy 2-core machine.
          testTimeout: 60_000,
          // mui-tiptap's package gives Node its CommonJS build, which loads a second ProseMirror beside the
          // ESM one the page imports: tests take its ESM build through Vite, as the browser bundle does.
          server: { deps: { inline: [/mui-tiptap/] } },
        },
        resolve: { alias: [{ find: /^mui-tiptap$/, replacement: path.resolve(import.meta.dirname, 'node_modules/mui-tiptap/dist/esm/index.js') }] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['server/**/*.api.test.ts'],
          ...PARALLEL,
          environment: 'node',
          globalSetup: ['tests/support/global-db.ts'],
          // Two files at a time on two cores beside the web files: a mail job can take seconds to be picked up.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'lifecycle',
          include: ['tests/lifecycle/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-server.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
