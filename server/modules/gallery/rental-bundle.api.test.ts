import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../tests/support/app.js';
import type { Bundle } from '../../../core/api/gallery.js';
import committed from './apps/rental-assistance.json' with { type: 'json' };
import { rentalApp } from './apps/rental.js';

/**
 * The gallery's "Rental assistance" is the demo's own application: the demo
 * tenant's project exported through the API, made a gallery app by
 * apps/rental.ts. GALLERY_WRITE=1 writes the file; otherwise a committed
 * file that no longer matches the demo fails here.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ demo: true, workflow: true });
}, 120_000);
afterAll(async () => t?.close());

describe('the rental-assistance gallery bundle', () => {
  it('is the demo project exported', async () => {
    const { sid } = await login(t, 'admin@demo.test');
    const res = await t.request({ method: 'GET', url: '/api/projects/applications/export', cookies: { sid } });
    expect(res.statusCode).toBe(200);
    const bundle = rentalApp(res.json<Bundle>());
    expect(bundle.protocols.map((p) => p.code)).toEqual(['rental-assistance']);
    expect(bundle.forms.map((f) => f.code).sort()).toEqual(['document-verification', 'eligibility', 'intake-review', 'landlord-side', 'landlord-verification', 'payment-approval', 'rental-application']);
    expect(bundle.masters.map((m) => m.code)).toEqual(['document_types']);
    expect(bundle.teams.map((m) => m.name).sort()).toEqual(['Document review', 'Intake', 'Payments', 'Supervisors']);
    const text = `${JSON.stringify(bundle, null, 2)}\n`;
    if (process.env.GALLERY_WRITE === '1') writeFileSync(new URL('./apps/rental-assistance.json', import.meta.url), text);
    else expect(JSON.parse(text)).toEqual(committed);
  }, 60_000);
});
