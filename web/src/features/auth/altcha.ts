let loading: Promise<void> | null = null;

/**
 * The ALTCHA widget, loaded only by the sign-up page. The build without
 * bundled workers is used so that the proof-of-work worker is a file of this
 * site (the server's Content-Security-Policy allows no blob: workers).
 */
export function loadAltcha(): Promise<void> {
  loading ??= (async () => {
    await import('altcha/external');
    const [{ default: Pbkdf2Worker }] = await Promise.all([
      import('altcha/workers/pbkdf2?worker'),
      import('altcha/altcha.css'),
      import('altcha/i18n/es-es'),
    ]);
    globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
