/**
 * The web UI's part of "Documents outside the browser", in real Chromium against the running
 * service: the PNG button downloads the server's PNG (the same bytes as `?format=png`), Copy
 * text copies the same text as `?format=text`, and Settings → Webhook sets the webhook (the
 * secret shown once), shows its last delivery and removes it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChromium, signIn, type OpenChromium } from './browser.ts';
import { readFileSync } from 'node:fs';
import { decode } from 'fast-png';
import { createPrinter, createWorkspaceAndLogin } from './api.ts';


describe('documents outside the browser, in the web UI', () => {
  const baseUrl = inject('baseUrl');
  let page: Page;
  let browser: OpenChromium | undefined;
  let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
  let printer: any;
  let documentId = '';
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    ws = await createWorkspaceAndLogin('Documents out');
    printer = await createPrinter(ws.api, { displayName: 'Counter', widthInDots: 576 });
    const hex = Buffer.from('\x1b@Espresso      2.20\nTOTAL         2.20\n\x1dV\x00', 'latin1').toString('hex');
    expect((await ws.api('POST', `/api/printers/${printer.printer.id}/documents/import`, { data: hex, format: 'Hex' })).status).toBe(204);
    documentId = (await ws.api('GET', `/api/printers/${printer.printer.id}/documents/canvas?Limit=1`)).body.result.items[0].id;
    browser = await openChromium({ acceptDownloads: true });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await signIn(page, baseUrl, ws.token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("PNG downloads the server's PNG; Copy text copies the server's text", async () => {
    await page.goto(`${baseUrl}/printers/${printer.printer.id}`);
    const doc = page.locator('article.doc').first();
    await doc.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), doc.getByRole('button', { name: 'PNG' }).click()]);
    const bytes = new Uint8Array(readFileSync(await download.path()));
    const server = new Uint8Array(await (await fetch(`${baseUrl}/api/printers/${printer.printer.id}/documents/${documentId}?format=png`, { headers: { authorization: `Bearer ${ws.accessToken}` } })).arrayBuffer());
    expect(bytes).toEqual(server);
    expect(decode(bytes).width).toBe(576);
    await doc.getByRole('button', { name: 'Copy text' }).click();
    await page.getByText('Document text copied').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const text = await (await fetch(`${baseUrl}/api/printers/${printer.printer.id}/documents/${documentId}?format=text`, { headers: { authorization: `Bearer ${ws.accessToken}` } })).text();
    expect(copied).toBe(text);
    expect(text).toBe('Espresso      2.20\nTOTAL         2.20');
    expect(pageErrors).toEqual([]);
  });

  it('Settings → Webhook sets it (secret shown once), shows the last delivery, and removes it', async () => {
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Webhook' }).waitFor();
    await page.getByText('No webhook: documents are not sent anywhere.').waitFor();
    await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('No delivery yet.').waitFor();
    const secret = await page.locator('.webhook-secret code').textContent();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const stored = await ws.api('GET', '/api/workspaces/webhook');
    expect(stored.body.url).toBe('http://127.0.0.1:9/hook');
    // A delivery attempt (nobody listens on port 9) shows as "no answer" after a reload.
    expect((await ws.api('POST', `/api/printers/${printer.printer.id}/documents/import`, { data: '1b 40 48 69 0a', format: 'Hex' })).status).toBe(204);
    await expect.poll(async () => (await ws.api('GET', '/api/workspaces/webhook')).body.lastDeliveryAt, { timeout: 20_000 }).toBeTruthy();
    await page.reload();
    await page.getByText(/Last delivery .*: no answer\./).waitFor();
    await page.getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No webhook: documents are not sent anywhere.').waitFor();
    expect((await ws.api('GET', '/api/workspaces/webhook')).status).toBe(204);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
