import { ensureWebBuild } from '../server/web-build.js';

const state = await ensureWebBuild((m) => console.log(m));
console.log(`web build: ${state === 'fresh' ? 'up to date' : 'built'}`);
