import { readFileSync } from 'node:fs';

/** The application version: package.json's, shared by server and the built web app. */
export const APP_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
