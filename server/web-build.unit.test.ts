import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepRecentAssets } from './web-build.js';

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
