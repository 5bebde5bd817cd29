/**
 * The web UI and status polls (extensions.md "Status polls"), in real Chromium: the printer's
 * page lists documents without them (IncludeStatusPolls=false) and shows how many there are,
 * and the count follows new polls live.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openChromium, signIn, type OpenChromium } from './browser.ts';
import { createPrinter, createWorkspaceAndLogin } from './api.ts';

describe('status polls in the web UI', () => {
  const baseUrl = inject('baseUrl');
  let browser: OpenChromium | undefined;
  let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
  let printerId = '';
  const importHex = async (hex: string) =>
    expect((await ws.api('POST', `/api/printers/${printerId}/documents/import`, { data: hex, format: 'Hex' })).status).toBe(204);

  beforeAll(async () => {
    ws = await createWorkspaceAndLogin('Status polls UI');
    printerId = (await createPrinter(ws.api, { displayName: 'Polled till' })).printer.id;
    await importHex('100401'); // DLE EOT 1: a status poll
    await importHex(Buffer.from('\x1b@Flat white    3.10\n\x1dV\x00', 'latin1').toString('hex'));
    browser = await openChromium();
    await signIn(browser.page, baseUrl, ws.token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the receipt as a card and counts the polls, also those that arrive while it is open', async () => {
    const page = browser!.page;
    await page.goto(`${baseUrl}/printers/${printerId}`);
    await page.locator('article.doc').first().waitFor({ timeout: 20_000 });
    await page.getByText('1 status poll', { exact: false }).waitFor({ timeout: 10_000 });
    expect(await page.locator('article.doc').count()).toBe(1);
    await page.locator('section.documents .stream-state[data-state="live"]').waitFor({ timeout: 10_000 });
    await importHex('100402');
    await page.getByText('2 status polls', { exact: false }).waitFor({ timeout: 10_000 });
    expect(await page.locator('article.doc').count()).toBe(1);
  });
});
