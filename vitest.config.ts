import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, five tiers: pure unit tests (core, server), web components
 * (jsdom), API tests through app.inject on a real PostgreSQL, process
 * lifecycle (the real server started, killed and restarted), and browser
 * journeys (Playwright in Debian's Chromium against the real server).
 */
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0-test') },
  test: {
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['core/**/*.test.ts', 'server/**/*.unit.test.ts', 'scripts/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
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
          environment: 'node',
          globalSetup: ['tests/support/global-db.ts'],
          testTimeout: 20_000,
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
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-server.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
