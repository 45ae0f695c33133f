import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl } from './browser.js';

/** What the applicant journeys (issue 18) share: the page checks, the mail they read, the lease they upload. */

/** An applicant's page as it should be: axe finds nothing serious or critical, and nothing scrolls sideways. */
export async function looksRight(page: Page, where: string) {
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${where}: sideways scrolling`).toBe(true);
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`);
  expect(serious, where).toEqual([]);
}

/** The newest message of `event` mailed to `to`, as the outbox keeps it (the e2e server sends no mail): read by an admin. */
export async function mailTo(admin: APIRequestContext, to: string, event: string, timeoutMs = 20_000): Promise<{ subject: string; bodyText: string }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const list = (await (await admin.get(`${baseUrl()}/api/mail/outbox?recipient=${encodeURIComponent(to)}&limit=50`)).json()) as { items: Array<{ id: number; event: string | null }> };
    const found = list.items.find((m) => m.event === event);
    if (found) return (await (await admin.get(`${baseUrl()}/api/mail/outbox/${found.id}`)).json()) as { subject: string; bodyText: string };
    if (Date.now() > end) throw new Error(`no ${event} mail to ${to}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A one-page PDF: the lease staff ask for. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
