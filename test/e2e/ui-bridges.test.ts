/**
 * Settings → Bridges and the printer form's bridge picker in real Chromium: a bridge created
 * in the UI shows its token once (a token the Worker accepts as that bridge), is listed as not
 * connected, can be picked for a new printer (the printer then has its bridgeId and public
 * host), the panel is axe-clean, and revoking it in the UI empties the list and kills the token.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChromium, signIn, type OpenChromium } from './browser.ts';
import { resolve } from 'node:path';
import { createWorkspaceAndLogin } from './api.ts';

const root = resolve(import.meta.dirname, '../..');
const AXE = resolve(root, 'node_modules/axe-core/axe.min.js');

describe('bridges in the web UI', () => {
  const baseUrl = inject('baseUrl');
  let page: Page;
  let browser: OpenChromium | undefined;
  let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;

  /** What the internal routes make of a bearer: 401 unknown, 403 a site's bridge (not the shared one). */
  const internalStatus = async (bearer: string) => (await fetch(`${baseUrl}/internal/stats`, { headers: { authorization: `Bearer ${bearer}` } })).status;

  beforeAll(async () => {
    ws = await createWorkspaceAndLogin('Bridges café');
    browser = await openChromium({ bypassCSP: true });
    page = browser.page;
    await signIn(page, baseUrl, ws.token);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a bridge, shows its token once, lets a printer use it, and revokes it', async () => {
    await page.goto(`${baseUrl}/settings`);
    const panel = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Bridges' }) });
    await panel.getByText('No bridges yet').waitFor();
    await panel.getByLabel('Name').fill('Shop 12');
    await panel.getByLabel('Public host').fill('192.168.12.20');
    await panel.getByRole('button', { name: 'Create bridge' }).click();
    const tokenBox = panel.getByLabel('Bridge token');
    await tokenBox.waitFor();
    const token = await tokenBox.inputValue();
    expect(token).toMatch(/^ssb_/);
    expect(await panel.locator('pre').textContent()).toContain(`BRIDGE_TOKEN=${token} WORKER_URL=${baseUrl}`);
    expect(await internalStatus(token)).toBe(403); // a real bridge token: accepted as a site's bridge
    expect(await internalStatus('ssb_' + 'x'.repeat(43))).toBe(401);
    const row = panel.locator('tbody tr', { hasText: 'Shop 12' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Not connected');
    const [bridge] = (await ws.api('GET', '/api/workspaces/bridges')).body;
    expect(bridge).toMatchObject({ name: 'Shop 12', publicHost: '192.168.12.20' });

    // The token is shown once: not after a reload, nor in the API.
    await page.reload();
    await panel.locator('tbody tr', { hasText: 'Shop 12' }).waitFor();
    expect(await page.content()).not.toContain(token);

    await page.addScriptTag({ path: AXE });
    const serious = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Element, opts: object): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
      return (await axe.run(document.querySelector('main')!, { resultTypes: ['violations'] })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(serious).toEqual([]);

    // The printer form offers the bridge.
    await page.locator('aside, nav, main').getByRole('button', { name: '+ New printer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Bridge').locator('option', { hasText: 'Shop 12' }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Name', { exact: true }).fill('Shop 12 till');
    await dialog.getByLabel('Bridge').selectOption(bridge.id);
    await dialog.getByRole('button', { name: 'Create printer' }).click();
    await dialog.waitFor({ state: 'detached' });
    const printers = (await ws.api('GET', '/api/printers')).body as any[];
    const created = printers.find((p) => p.printer.displayName === 'Shop 12 till');
    expect(created.settings).toMatchObject({ bridgeId: bridge.id, publicHost: '192.168.12.20' });

    // Revoke.
    await page.goto(`${baseUrl}/settings`);
    await panel.getByRole('button', { name: 'Revoke Shop 12' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke bridge' }).click();
    await panel.getByText('No bridges yet').waitFor();
    expect((await ws.api('GET', '/api/workspaces/bridges')).body).toEqual([]);
    expect(await internalStatus(token)).toBe(401);
  }, 60_000);
});
