/**
 * A cloud printer set up through the printer form in a real headless Chromium: the form's
 * Cloud printing fields create it, and the printer page shows its server, the last poll and,
 * once the server is gone, the error, live from the runtime stream.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChromium, type OpenChromium } from './browser.ts';
import { CloudPrntServer } from './support/cloudprnt-server.ts';

describe('printer form and page: cloud printing', () => {
  let page: Page;
  let browser: OpenChromium | undefined;
  const pageErrors: string[] = [];
  const baseUrl = inject('baseUrl');
  let server: CloudPrntServer;

  beforeAll(async () => {
    server = await new CloudPrntServer().start();
    browser = await openChromium();
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server.close().catch(() => undefined);
  });

  it('creates a CloudPRNT printer from the form; its page shows the last poll, then the server’s absence', async () => {
    await page.goto(baseUrl + '/');
    await page.getByLabel('Workspace name').fill('Cloud printing');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('I have saved the token somewhere safe').click();
    await page.getByRole('button', { name: 'Continue to the workspace' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    await page.locator('.sidebar').getByRole('button', { name: '+ New printer' }).click();
    await page.getByLabel('Protocol').selectOption('StarPrnt');
    await page.getByLabel('Name', { exact: true }).fill('Kitchen cloud');
    await page.getByLabel('Server kind').selectOption('StarCloudPrnt');
    await page.getByLabel('Server URL').fill(server.url);
    await page.getByLabel('Poll interval (seconds)').fill('1');
    await page.getByRole('button', { name: 'Create printer' }).click();
    await page.locator('.printer-title', { hasText: 'Kitchen cloud' }).waitFor();

    const line = page.locator('.cloud-print-status');
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toMatch(/Star CloudPRNT · polls .* every 1 s · last poll/);
    expect(server.polls.length).toBeGreaterThan(0);
    await server.close();
    await expect.poll(() => line.textContent(), { timeout: 20_000 }).toMatch(/last poll .* · .+/);
    expect(await line.getAttribute('class')).toContain('error-text');
    await page.screenshot({ path: '/tmp/i28-cloud-printer-page.png' });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
