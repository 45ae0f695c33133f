import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, signIn, signedInContext, unique } from './browser.js';

/**
 * Issue 22 as a new user tries it: an administrator makes a service account
 * and a token and lists cases with it as `curl` would; subscribes a receiver
 * on loopback (the e2e server lists 127.0.0.1 in WEBHOOK_ALLOW_HOSTS) to
 * "Task accepted"; a reviewer accepts a task in the browser and the receiver
 * gets one delivery that a Standard Webhooks verifier accepts; the demo
 * protocol is shown as a BPMN diagram by bpmn-js, exported, and imported
 * back as its draft, equal to the published version; a Camunda Modeler file
 * with timers is refused with its elements named. A receiver that stops
 * gets the delivery it missed once it is back.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`${baseUrl()}${path}`);
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that answers 204 and keeps what it got; it may be stopped and started again on its port. */
async function receiver() {
  const got: Received[] = [];
  let server: http.Server | null = null;
  const start = async (port: number) => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  };
  const close = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      if (!s) return resolve();
      s.closeAllConnections();
      s.close(() => resolve());
    });
  const port = await start(0);
  return { url: `http://127.0.0.1:${port}/casebook`, got, close, restart: () => start(port) };
}

describe('integrations, as an administrator tries them', () => {
  it('a service account and its token list cases; a subscription gets one signed delivery of a task accepted in the browser', { timeout: 180_000 }, async () => {
    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    const page = await admin.newPage();

    // A service account with the Coordinator role, and a token that never expires (warned).
    await page.goto('/acl/service-accounts');
    await page.getByRole('heading', { level: 1, name: 'Service accounts' }).waitFor();
    await page.getByRole('button', { name: 'New service account' }).click();
    const account = page.getByRole('dialog', { name: 'New service account' });
    const name = unique('Finance sync ');
    await account.getByRole('textbox', { name: 'Name' }).fill(name);
    await account.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Coordinator', exact: true }).click();
    await account.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes saved successfully');
    await page.getByRole('button', { name: new RegExp(name) }).click();
    await page.getByRole('button', { name: 'New token' }).click();
    const made = page.getByRole('dialog', { name: 'New API token' });
    await made.getByRole('textbox', { name: 'Name' }).fill('Nightly export');
    await made.getByRole('combobox', { name: 'Expires after' }).click();
    await page.getByRole('option', { name: 'Never' }).click();
    await made.getByText(/never expires works until it is revoked/).waitFor();
    await made.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token “Nightly export” created' });
    const token = await shown.getByRole('textbox', { name: 'Token' }).inputValue();
    expect(token).toMatch(/^cbk_/);
    await shown.getByRole('button', { name: 'Done' }).click();

    // As curl would: the token alone, no cookie; the list, filtered.
    const curl = await fetch(`${baseUrl()}/api/cases?limit=5&search=a`, { headers: { authorization: `Bearer ${token}` } });
    expect(curl.status).toBe(200);
    const listed = (await curl.json()) as { items: Array<{ number: string }> };
    expect(listed.items.length).toBeGreaterThan(0);
    expect((await fetch(`${baseUrl()}/api/cases?limit=5`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);

    // A receiver subscribed to "Task accepted".
    const hook = await receiver();
    try {
      await page.goto('/configuracion/webhooks');
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByRole('button', { name: 'New subscription' }).first().click();
      const form = page.getByRole('dialog', { name: 'New webhook subscription' });
      await form.getByRole('textbox', { name: 'Receiver URL' }).fill(hook.url);
      await form.getByRole('checkbox', { name: 'Task accepted' }).check();
      await form.getByRole('button', { name: 'Save' }).click();
      const secretDialog = page.getByRole('dialog', { name: `Secret for ${hook.url}` });
      const secret = await secretDialog.getByRole('textbox', { name: 'Secret' }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await secretDialog.getByRole('button', { name: 'Done' }).click();

      // The reviewer accepts a fresh intake task in the browser.
      const reviewerCtx = await newContext(browser, 'en');
      const reviewer = await reviewerCtx.newPage();
      await signIn(reviewer, 'reviewer@demo.test');
      const mine = await getJson<{ items: Array<{ id: number; code: string; state: string; caseId: number }> }>(reviewerCtx.request, '/api/tasks/pending?limit=100');
      let taskId: number | undefined;
      for (const t of mine.items.filter((x) => x.code === 'intake' && x.state === 'PENDING')) {
        const detail = await getJson<{ reason: string | null }>(reviewerCtx.request, `/api/tasks/${t.id}`);
        if (!detail.reason) {
          taskId = t.id;
          break;
        }
      }
      if (!taskId) throw new Error('the demo has no fresh intake task for the reviewer');
      await reviewer.goto(`/tasks/${taskId}`);
      await reviewer.getByRole('heading', { level: 1, name: 'Intake review' }).waitFor();
      await reviewer.getByRole('radio', { name: 'Yes' }).check();
      await reviewer.getByRole('toolbar', { name: 'Decisions' }).getByRole('button', { name: 'Accept' }).click();
      await reviewer.getByRole('dialog', { name: 'Accept the task?' }).getByRole('button', { name: 'Accept' }).click();
      await toast(reviewer, 'Task Intake review accepted');
      await reviewerCtx.close();

      // One delivery, within seconds, that a Standard Webhooks verifier accepts.
      await expect.poll(() => hook.got.length, { timeout: 30_000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 2000));
      const accepted = hook.got.filter((g) => JSON.parse(g.body).type === 'task.accepted');
      expect(accepted).toHaveLength(1);
      const [delivery] = accepted as [Received];
      const verified = new Webhook(secret).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }) as { data: { task: { id: number } } };
      expect(verified.data.task.id).toBe(taskId);
      // The page lists it with its answer.
      await page.reload();
      await page.getByText('204').first().waitFor();

      // The receiver stops: a test event fails, is kept, and is tried again until the receiver is back.
      await hook.close();
      await page.getByRole('button', { name: `Send a test event: ${hook.url}` }).click();
      await toast(page, 'Test event queued');
      await page.getByRole('button', { name: `Show deliveries: ${hook.url}` }).click();
      const deliveries = page.getByRole('table', { name: 'Deliveries' });
      const testRow = deliveries.getByRole('row').filter({ hasText: 'Test event' }).first();
      await testRow.getByText(/could not connect/).waitFor({ timeout: 30_000 });
      await testRow.getByText(/^Next try /).waitFor();
      expect(hook.got.filter((g) => JSON.parse(g.body).type === 'webhook.test')).toHaveLength(0);
      await hook.restart();
      await expect.poll(() => hook.got.filter((g) => JSON.parse(g.body).type === 'webhook.test').length, { timeout: 45_000 }).toBe(1);
      const retried = hook.got.find((g) => JSON.parse(g.body).type === 'webhook.test') as Received;
      expect(
        new Webhook(secret).verify(retried.body, {
          'webhook-id': String(retried.headers['webhook-id']),
          'webhook-timestamp': String(retried.headers['webhook-timestamp']),
          'webhook-signature': String(retried.headers['webhook-signature']),
        }),
      ).toMatchObject({ type: 'webhook.test' });
      // The page, asking again while one is pending, shows it delivered on its second try.
      await testRow.getByText('Delivered').waitFor({ timeout: 15_000 });
      expect(await testRow.getByRole('cell').nth(4).textContent()).toBe('2');
    } finally {
      await hook.close();
    }
    await admin.close();
  });

  it('the demo protocol as a BPMN diagram, exported, and imported back as its draft', { timeout: 120_000 }, async () => {
    const admin = await signedInContext(browser, 'admin@demo.test', 'en');
    const page = await admin.newPage();
    const protocols = await getJson<{ items: Array<{ id: number; code: string }> }>(admin.request, '/api/protocols?search=rental-assistance');
    const protocol = protocols.items.find((p) => p.code === 'rental-assistance');
    if (!protocol) throw new Error('no demo protocol');
    await page.goto(`/protocolos/${protocol.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // bpmn-js draws it: the tasks by name.
    await page.getByRole('button', { name: 'BPMN diagram' }).click();
    const diagram = page.getByRole('img', { name: 'BPMN diagram of the protocol' });
    // bpmn-js marks each drawn element with its BPMN id (a task's is its code) and writes its name (the protocol's own, Spanish) as SVG text.
    await diagram.locator('[data-element-id="intake"]').waitFor();
    expect(await diagram.locator('[data-element-id="intake"]').textContent()).toContain('Revisión de ingreso');

    // Exported, then imported back: the draft is the published version again.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export BPMN' }).click()]);
    const file = await download.path();
    expect(file).toBeTruthy();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import BPMN' }).click()]);
    await chooser.setFiles(file as string);
    await toast(page, /is now the draft \(7 task\(s\)\)/);
    const after = await getJson<{ changedSincePublished: boolean }>(admin.request, `/api/protocols/${protocol.id}`);
    expect(after.changedSincePublished).toBe(false);

    // A Camunda Modeler file with timers: refused, each element named, nothing imported unless the user drops them.
    const [picker] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import BPMN' }).click()]);
    await picker.setFiles(fileURLToPath(new URL('../fixtures/camunda-timer.bpmn', import.meta.url)));
    const report = page.getByRole('dialog', { name: 'Elements the engine cannot run' });
    const listed = report.getByRole('list', { name: 'Elements the engine cannot run' });
    await listed.getByText('StartEvent_Weekly', { exact: true }).waitFor();
    await listed.getByText(/^Event_Wait .*timerEventDefinition/).waitFor();
    await report.getByRole('button', { name: 'Cancel' }).click();
    await report.waitFor({ state: 'detached' });
    expect((await getJson<{ changedSincePublished: boolean }>(admin.request, `/api/protocols/${protocol.id}`)).changedSincePublished).toBe(false);
    await admin.close();
  });
});
