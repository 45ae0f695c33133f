#!/usr/bin/env node
// npm test: every test tier in one Vitest run (unit, web, api, lifecycle, e2e).
// Installs Debian's Chromium for the browser tests when it is missing and we may,
// builds the web app when stale, and ends with one line `N passed, N failed`.
// Extra arguments go to Vitest (e.g. `npm test -- --project unit`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
process.chdir(root);
const args = process.argv.slice(2);
const wantsE2e = args.length === 0 || args.some((a) => a.includes('e2e'));

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (wantsE2e && !existsSync(chromium)) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium from Debian for the browser tests...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const r = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } else {
    console.error(`Chromium is needed for the browser tests: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}

const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-web-build.ts'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

mkdirSync('test-results', { recursive: true });
const out = path.join('test-results', process.env.TEST_RESULTS_NAME || 'vitest.json');
const vitest = path.join('node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args], {
  stdio: 'inherit',
});

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
} catch {
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
