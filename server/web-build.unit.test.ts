import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepRecentAssets, withFileLock } from './web-build.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function assetsDir(files: Record<string, { text: string; ageDays?: number }>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-assets-'));
  dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  for (const [name, { text, ageDays = 0 }] of Object.entries(files)) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    const when = new Date(Date.now() - ageDays * 86_400_000);
    utimesSync(file, when, when);
  }
  return dir;
}

describe('a new web build keeps the previous build’s recent assets', () => {
  it('copies the assets younger than a week that the new build lacks, never over a new one', () => {
    const previous = assetsDir({ 'CasePage-old1.js': { text: 'old page' }, 'index-old2.js': { text: 'old index', ageDays: 2 }, 'Ancient-old3.js': { text: 'ancient', ageDays: 8 }, 'shared-same.js': { text: 'previous' } });
    const next = assetsDir({ 'CasePage-new1.js': { text: 'new page' }, 'shared-same.js': { text: 'new' } });
    expect(keepRecentAssets(previous, next).sort()).toEqual(['CasePage-old1.js', 'index-old2.js']);
    expect(readFileSync(path.join(next, 'CasePage-old1.js'), 'utf8')).toBe('old page');
    expect(existsSync(path.join(next, 'Ancient-old3.js'))).toBe(false);
    expect(readFileSync(path.join(next, 'shared-same.js'), 'utf8')).toBe('new');
    // Kept with their own age, so they leave a week after the build that made them: six days on,
    // the two-day-old one is gone from the next build and the rest stay.
    expect(keepRecentAssets(next, assetsDir({}), Date.now() + 6 * 86_400_000).sort()).toEqual(['CasePage-new1.js', 'CasePage-old1.js', 'shared-same.js']);
  });

  it('does nothing on a first build', () => {
    expect(keepRecentAssets(path.join(os.tmpdir(), 'casebook-no-such-dir'), assetsDir({}))).toEqual([]);
  });
});

describe('instances starting together build once', () => {
  it('runs one holder at a time: the second waits for the first to finish', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-lock-'));
    dirs.push(dir);
    const target = path.join(dir, 'web');
    const log: string[] = [];
    const holder = (name: string) => async () => {
      log.push(`${name} in`);
      await new Promise((r) => setTimeout(r, 300));
      log.push(`${name} out`);
    };
    await Promise.all([withFileLock(target, holder('a'), { staleMs: 5000 }), withFileLock(target, holder('b'), { staleMs: 5000 })]);
    expect(log).toHaveLength(4);
    // Whichever came first left before the other entered.
    expect(log[1]).toBe(log[0].replace(' in', ' out'));
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('takes over a lock left by a process that died, once it is stale', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-lock-'));
    dirs.push(dir);
    const target = path.join(dir, 'web');
    mkdirSync(`${target}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${target}.lock`, old, old);
    let ran = false;
    await withFileLock(target, async () => void (ran = true), { staleMs: 5000, waitMs: 2000 });
    expect(ran).toBe(true);
  });

  it('gives up waiting on a live lock after its wait, with ELOCKED', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'casebook-lock-'));
    dirs.push(dir);
    const target = path.join(dir, 'web');
    let release!: () => void;
    const held = withFileLock(target, () => new Promise<void>((r) => (release = r)), { staleMs: 5000 });
    await new Promise((r) => setTimeout(r, 100));
    await expect(withFileLock(target, async () => {}, { staleMs: 5000, waitMs: 500 })).rejects.toMatchObject({ code: 'ELOCKED' });
    release();
    await held;
  });
});
