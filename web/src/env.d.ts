/** Injected by Vite from package.json (web/vite.config.ts). */
declare const __APP_VERSION__: string;
