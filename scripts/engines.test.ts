import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The supported Node versions are 20.19+, 22 and 24 (recommended). The
 * engines field, the README and the dependencies agree: `npm ci` on 22 or 24
 * warns about nothing, and on 20 only about the four packages the README
 * names (they declare Node 22 and run on 20: every tier passes on it).
 */
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const ON_NODE_20_ONLY = ['content-disposition', 'cookie', 'kysely', 'pg-boss'];
const ENGINES = '^20.19.0 || ^22.12.0 || >=24.0.0';

/** `ENGINES`, read as npm reads it. */
function supported(version: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 24;
}
const nodeMajor = Number(process.versions.node.split('.')[0]);

function npmCli(): string {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm?.endsWith('.js')) return fromNpm;
  return realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim());
}

describe('supported Node versions', () => {
  it('this Node is one the engines field accepts, and the README recommends 24', () => {
    expect(pkg.engines.node).toBe(ENGINES);
    expect(supported(process.version), process.version).toBe(true);
    expect(readme).toMatch(/Node\.js 24 \(recommended\)/);
    for (const name of ON_NODE_20_ONLY) expect(readme).toContain(name);
  });

  it('npm ci warns about no engine on Node 22 and later, and on Node 20 only about the packages the README names', () => {
    // npm checks engines against the Node that runs it: run npm with this one.
    const r = spawnSync(process.execPath, [npmCli(), 'install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` },
    });
    expect(r.status, r.stderr).toBe(0);
    const warned = [...`${r.stdout}${r.stderr}`.matchAll(/EBADENGINE\s+package: '(@?[^@']+)@/g)].map((m) => m[1]).sort();
    if (nodeMajor >= 22) expect(warned).toEqual([]);
    else expect(warned).toEqual(ON_NODE_20_ONLY);
  }, 120_000);
});
