/**
 * Everyday use of the web UI in real Chromium, at a desktop (1366x900) and a phone (390x844)
 * size: label printers get a label view, no page scrolls sideways (360 px too), axe-core finds
 * nothing serious or critical on any page, and a keyboard user reaches the paper-out toggle
 * in at most 10 Tab presses past 100 documents. Plus the small things: the protocol's stock
 * in the form, toasts off the Upload button, one theme mode for both theme controls, ports on
 * the overview cards.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openChromium, type OpenChromium } from './browser.ts';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPrinter, createWorkspaceAndLogin } from './api.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';
import { pollUntil } from '../support/poll.ts';

const root = resolve(import.meta.dirname, '../..');
const artifacts = resolve(root, 'test-artifacts/ui-everyday');
const AXE = resolve(root, 'node_modules/axe-core/axe.min.js');
const VIEWPORTS = [{ name: 'desktop', width: 1366, height: 900 }, { name: 'phone', width: 390, height: 844 }] as const;

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }

/** axe-core in the page; the serious and critical violations, described for a failure message. */
async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  }) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join('; ')}`);
}

/**
 * How far the page scrolls sideways (0 when it does not), and the elements sticking out
 * past the viewport's right edge, for the failure message.
 */
const sidewaysScroll = (page: Page) => page.evaluate(() => {
  const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  if (overflow <= 0) return 0;
  const limit = document.documentElement.clientWidth;
  const culprits = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > limit + 0.5)
    .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= limit + 0.5) // the outermost ones
    .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
  return `${overflow}px sideways: ${culprits.join(', ')}`;
});

describe('web UI for everyday use', () => {
  const baseUrl = inject('baseUrl');
  let page: Page;
  let browser: OpenChromium | undefined;
  let ws: Awaited<ReturnType<typeof createWorkspaceAndLogin>>;
  let receipt: any;
  let label: any;
  const consoleErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: false });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    ws = await createWorkspaceAndLogin('Everyday café');
    receipt = await createPrinter(ws.api, { displayName: 'Front till' });
    label = await createPrinter(ws.api, { displayName: 'Parcel labels', protocol: 'Epl', widthInDots: 812, heightInDots: 1218 });
    // 100 documents on the receipt printer, so a keyboard user has a long list to skip.
    const hex = Buffer.from('\x1b@RECEIPT LINE ONE\nRECEIPT LINE TWO\n\x1dV\x00', 'latin1').toString('hex');
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 10 }, async () => {
        const r = await ws.api('POST', `/api/printers/${receipt.printer.id}/documents/import`, { data: hex, format: 'Hex' });
        expect(r.status).toBe(204);
      }));
    }
    // The newest receipt carries an error message (printed while paper out): its list of
    // errors is part of what axe checks.
    await pollUntil(async () => (await ws.api('GET', `/api/printers/${receipt.printer.id}`)).body.runtimeStatus?.state === 'Started',
      { timeoutMs: 20_000, everyMs: 200, what: 'the receipt printer to listen' });
    expect((await ws.api('PATCH', `/api/printers/${receipt.printer.id}/operational-flags`, { isPaperOut: true })).status).toBe(200);
    await printAndClose(receipt.settings.tcpListenPort, Buffer.from('\x1b@PRINTED WITHOUT PAPER\n\x1dV\x00', 'latin1'));
    expect((await ws.api('PATCH', `/api/printers/${receipt.printer.id}/operational-flags`, { isPaperOut: false })).status).toBe(200);
    // One EPL job printing two copies of a label.
    await pollUntil(async () => (await ws.api('GET', `/api/printers/${label.printer.id}`)).body.runtimeStatus?.state === 'Started',
      { timeoutMs: 20_000, everyMs: 200, what: 'the label printer to listen' });
    await printAndClose(label.settings.tcpListenPort, 'N\r\nA50,50,0,4,1,1,N,"PARCEL 42"\r\nP1,2\r\n');
    await pollUntil(async () => {
      const r = await ws.api('GET', `/api/printers/${receipt.printer.id}/documents/canvas?Limit=100`);
      const l = await ws.api('GET', `/api/printers/${label.printer.id}/documents/canvas`);
      const items = r.body.result.items ?? [];
      return items.length >= 100 && JSON.stringify(items[0]).includes('PRINTED WITHOUT PAPER') && (l.body.result.items?.length ?? 0) >= 1;
    }, { timeoutMs: 60_000, everyMs: 300, what: '101 receipts (the newest printed without paper) and one label job' });

    browser = await openChromium({ bypassCSP: true });
    page = browser.page;
    page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  const openPrinter = async (p: any) => {
    await page.goto(`${baseUrl}/printers/${p.printer.id}`);
    await page.locator('.printer-title', { hasText: p.printer.displayName }).waitFor();
    await page.locator('article.doc').first().waitFor({ timeout: 20_000 });
    await page.locator('.operations .flags').waitFor({ state: 'attached' });
  };

  const pages = [
    { name: 'overview', open: async () => { await page.goto(`${baseUrl}/`); await page.locator('.home-printer .address').first().waitFor(); } },
    { name: 'receipt-printer', open: async () => { await openPrinter(receipt); await page.locator('.doc-errors li').first().waitFor(); } },
    { name: 'label-printer', open: () => openPrinter(label) },
    { name: 'settings', open: async () => { await page.goto(`${baseUrl}/settings`); await page.getByRole('heading', { name: 'Recent connection attempts' }).waitFor(); } },
  ];

  it('the start page is axe-clean and fits a phone; signing in works', async () => {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize(vp);
      await page.goto(`${baseUrl}/`);
      await page.getByLabel('Workspace token').waitFor();
      expect(await axeProblems(page), `start page at ${vp.name}`).toEqual([]);
      expect(await sidewaysScroll(page)).toBe(0);
    }
    await page.setViewportSize(VIEWPORTS[0]);
    await page.getByLabel('Workspace token').fill(ws.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
  });

  it('the overview shows no literal backticks and each printer card shows its port', async () => {
    await pages[0].open();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain('`');
    const card = page.locator('.home-printer', { hasText: 'Parcel labels' });
    expect(await card.locator('.address').textContent()).toMatch(new RegExp(`:${label.settings.tcpListenPort}$`));
  });

  for (const vp of VIEWPORTS) {
    for (const p of pages) {
      it(`${p.name} at ${vp.width}x${vp.height}: no sideways scroll, no serious or critical axe findings`, async () => {
        await page.setViewportSize(vp);
        await p.open();
        await shot(`${p.name}-${vp.name}`);
        expect(await sidewaysScroll(page)).toBe(0);
        expect(await axeProblems(page)).toEqual([]);
        // The narrowest common phone as well: nothing sideways at 360 px either.
        await page.setViewportSize({ width: 360, height: 740 });
        await page.waitForTimeout(100);
        expect(await sidewaysScroll(page), `${p.name} at 360 px`).toBe(0);
      });
    }
  }

  for (const vp of VIEWPORTS) {
    it(`a label printer shows labels, not receipts, at ${vp.name} size`, async () => {
      await page.setViewportSize(vp);
      await openPrinter(label);
      expect(await page.locator('.printer-head .stock').textContent()).toBe('Label stock 4 × 6 in (101.6 × 152.4 mm) at 203 dpi');
      const doc = page.locator('article.doc', { hasText: 'PARCEL 42' }).first();
      await doc.waitFor();
      // P1,2: two copies, each drawn as its own label at the stock's size.
      expect(await doc.locator('.paper-frame.label').count()).toBe(2);
      expect(await doc.locator('.paper-frame.receipt').count()).toBe(0);
      expect(await doc.locator('.paper').first().evaluate((el) => [(el as HTMLElement).style.width, (el as HTMLElement).style.height])).toEqual(['812px', '1218px']);
      expect(await doc.locator('.label-stock').textContent()).toBe('2 labels · 4 × 6 in (101.6 × 152.4 mm) · 812 × 1218 dots at 203 dpi');
      // Only label-printer panels: conditions, buffer, settings; no cash drawers, no NV images.
      const ops = page.locator('#printer-controls');
      if (vp.name === 'phone') await page.getByRole('button', { name: 'Printer controls' }).click();
      await ops.getByRole('heading', { name: 'Conditions' }).waitFor();
      expect(await ops.getByRole('heading', { name: 'Cash drawers' }).count()).toBe(0);
      expect(await ops.getByRole('heading', { name: 'NV images' }).count()).toBe(0);
      await shot(`label-view-${vp.name}`);

      // The receipt printer still has its drawers and NV images.
      await openPrinter(receipt);
      if (vp.name === 'phone') await page.getByRole('button', { name: 'Printer controls' }).click();
      await ops.getByRole('heading', { name: 'Cash drawers' }).waitFor();
      await ops.getByRole('heading', { name: 'NV images' }).waitFor();
    });
  }

  it('on a phone the documents come first and the controls open as a panel', async () => {
    await page.setViewportSize(VIEWPORTS[1]);
    await openPrinter(receipt);
    const firstDoc = await page.locator('article.doc').first().boundingBox();
    expect(firstDoc!.y).toBeLessThan(VIEWPORTS[1].height); // visible without scrolling
    const paperOut = page.getByRole('switch', { name: 'Paper out' });
    expect(await paperOut.isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Printer controls' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await paperOut.waitFor({ state: 'visible' });
    await shot('controls-panel-phone');
    await page.keyboard.press('Escape');
    await paperOut.waitFor({ state: 'hidden' });
  });

  for (const vp of VIEWPORTS) {
    it(`keyboard only, ${vp.name}: from the page top to the paper-out toggle in at most 10 Tabs past 100 documents`, async () => {
      await page.setViewportSize(vp);
      await openPrinter(receipt);
      expect(await page.locator('article.doc').count()).toBeGreaterThanOrEqual(50);
      // Start from the top of the page, as after a fresh load.
      await page.evaluate(() => { (document.activeElement as HTMLElement | null)?.blur(); window.scrollTo(0, 0); });
      let tabs = 0;
      const path: string[] = [];
      const focused = () => page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { text: (el?.getAttribute('aria-label') || el?.textContent || '').trim().slice(0, 40), flag: el?.dataset.flag ?? '' };
      });
      while (tabs < 10) {
        await page.keyboard.press('Tab');
        tabs++;
        const f = await focused();
        path.push(f.text);
        if (f.flag === 'isPaperOut') break;
        if (f.text === 'Skip to printer controls') await page.keyboard.press('Enter');
      }
      expect((await focused()).flag, `Tab path: ${path.join(' → ')}`).toBe('isPaperOut');
      expect(tabs).toBeLessThanOrEqual(10);
      console.log(`[ui keyboard] ${vp.name}: paper-out toggle after ${tabs} Tabs (${path.join(' → ')})`);
      // And it works from the keyboard.
      const patched = page.waitForResponse((r) => r.url().includes('/operational-flags') && r.request().method() === 'PATCH');
      await page.keyboard.press('Space');
      expect((await patched).status()).toBe(200);
      await expect.poll(() => page.getByRole('switch', { name: 'Paper out' }).isChecked()).toBe(true);
      // Straight away again (the first answer may still be on its way): the last choice sticks.
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByRole('switch', { name: 'Paper out' }).isChecked()).toBe(false);
      await expect.poll(async () => (await ws.api('GET', `/api/printers/${receipt.printer.id}`)).body.operationalFlags.isPaperOut).toBe(false);
    });
  }

  it('choosing a protocol in the form applies its stock', async () => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${baseUrl}/`);
    await page.locator('main').getByRole('button', { name: '+ New printer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Protocol').selectOption('Epl');
    expect(await dialog.getByLabel('Width (dots)').inputValue()).toBe('812');
    expect(await dialog.getByLabel('Height (dots)').inputValue()).toBe('1218');
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Label printer');
    expect(await dialog.locator('.stock-size').textContent()).toBe('Label: 4 × 6 in (101.6 × 152.4 mm) at 203 dpi');
    // A receipt protocol's stock is its default model's paper: the TM-T88VI prints 512 dots at
    // 180 dpi on 80 mm paper (Epson's published figures, via the model catalogue).
    const models = await (await fetch(`${baseUrl}/api/printer-models`)).json() as { id: string; dpi: number; defaultWidthInDots: number }[];
    const tmT88vi = models.find((m) => m.id === 'epson-tm-t88vi')!;
    expect([tmT88vi.dpi, tmT88vi.defaultWidthInDots]).toEqual([180, 512]);
    await dialog.getByLabel('Protocol').selectOption('EscPos');
    expect(await dialog.getByLabel('Width (dots)').inputValue()).toBe('512');
    expect(await dialog.getByLabel('Height (dots)').inputValue()).toBe('');
    expect(await dialog.locator('.stock-size').textContent()).toBe('Paper: 2.84 in (72.2 mm) wide, continuous at 180 dpi');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  for (const vp of VIEWPORTS) {
    it(`a toast does not cover the Upload button (${vp.name})`, async () => {
      await page.setViewportSize(vp);
      await openPrinter(receipt);
      // Copying the address answers with a toast (copied, or an error where the clipboard is refused).
      await page.getByRole('button', { name: 'Copy host and port' }).click();
      await page.locator('.toast').first().waitFor();
      if (vp.name === 'phone') await page.getByRole('button', { name: 'Printer controls' }).click();
      const upload = page.getByRole('button', { name: 'Upload' });
      await upload.scrollIntoViewIfNeeded();
      const box = (await upload.boundingBox())!;
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent?.trim(), { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      expect(hit).toBe('Upload');
      await page.locator('.toast .icon-btn').first().click();
      if (vp.name === 'phone') await page.keyboard.press('Escape');
    });
  }

  it('the top bar theme button and the Settings select show the same mode', async () => {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${baseUrl}/settings`);
    const select = page.getByLabel('Theme in this browser');
    await select.waitFor();
    const button = page.locator('.topbar').getByRole('button', { name: /^Theme:/ });
    await select.selectOption('dark');
    expect(await button.textContent()).toBe('Theme: dark');
    await button.click(); // dark → auto
    expect(await select.inputValue()).toBe('auto');
    expect(await button.textContent()).toBe('Theme: auto');
    expect(consoleErrors).toEqual([]);
  });
});
