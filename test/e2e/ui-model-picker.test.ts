/**
 * The printer form's model picker in a real headless Chromium against the real service: it
 * lists the models of the chosen protocol from GET /api/printer-models, picking one fills its
 * print width, and the printer is created with that model.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChromium, type OpenChromium } from './browser.ts';
import { apiFor } from './api.ts';


describe('printer form: model picker', () => {
  let page: Page;
  let browser: OpenChromium | undefined;
  const pageErrors: string[] = [];
  const baseUrl = inject('baseUrl');

  beforeAll(async () => {
    browser = await openChromium();
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('filters by protocol, fills the width, and creates the printer with the chosen model', async () => {
    await page.goto(baseUrl + '/');
    await page.getByLabel('Workspace name').fill('Model picker');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const token = (await page.locator('#new-token').textContent())?.trim() ?? '';
    await page.getByText('I have saved the token somewhere safe').click();
    await page.getByRole('button', { name: 'Continue to the workspace' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    await page.locator('.sidebar').getByRole('button', { name: '+ New printer' }).click();
    const model = page.getByLabel('Model');
    await expect.poll(() => model.inputValue()).toBe('epson-tm-t88vi');
    const receiptModels = await model.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(receiptModels).toContain('xprinter-xp-n160ii');
    expect(receiptModels).not.toContain('zebra-gk420d');

    await page.getByLabel('Protocol').selectOption('Epl');
    await expect.poll(() => model.inputValue()).toBe('zebra-gk420d');
    const labelModels = await model.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(labelModels).toEqual(['zebra-gk420d']);

    await page.getByLabel('Protocol').selectOption('EscPos');
    await model.selectOption('pos-5890');
    await expect.poll(() => page.getByLabel('Width (dots)').inputValue()).toBe('384');
    await page.getByLabel('Name', { exact: true }).fill('Chinese 58 mm');
    await page.getByRole('button', { name: 'Create printer' }).click();
    await page.locator('.printer-title', { hasText: 'Chinese 58 mm' }).waitFor();
    const printerId = page.url().split('/printers/')[1];

    const anon = apiFor(null);
    const login = await anon('POST', '/api/auth/login', { token });
    const printer = await apiFor(login.body.accessToken)('GET', `/api/printers/${printerId}`);
    expect(printer.body.settings).toMatchObject({ model: 'pos-5890', multiByteEncoding: 'None', widthInDots: 384 });
    expect(pageErrors).toEqual([]);
  });
});
