import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * Pages and components get their data through their feature's hooks: only a
 * feature's `api.ts` (or files under its `api/` folder) and the app's own
 * session and project modules call the HTTP helpers of lib/api.
 */
const src = dirname(dirname(fileURLToPath(import.meta.url)));
const APP_API_MODULES = ['app/session/session.ts', 'app/project/projectSettings.ts'];
const HTTP_HELPERS = /\bimport\s*\{[^}]*\b(apiFetch|apiDownload)\b[^}]*\}\s*from\s*'[^']*\/lib\/api(\.js)?'/;

const allowed = (file: string) =>
  /^features\/[^/]+\/api\.ts$/.test(file) || /^features\/[^/]+\/api\/.+\.ts$/.test(file) || APP_API_MODULES.includes(file);

function sources(folder: string): string[] {
  return readdirSync(join(src, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => `${folder}/${file.split('\\').join('/')}`)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

describe('the api boundary of the web app', () => {
  test('no component, page or helper outside an api module calls apiFetch or apiDownload', () => {
    const files = [...sources('features'), ...sources('app')];
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) => !allowed(file) && HTTP_HELPERS.test(readFileSync(join(src, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  test('every feature that talks to the server has one api.ts', () => {
    const features = readdirSync(join(src, 'features'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    for (const feature of features) {
      const files = sources(`features/${feature.name}`);
      expect(files.filter((file) => /Api\.ts$/.test(file)), feature.name).toEqual([]);
    }
  });
});
