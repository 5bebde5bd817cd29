/**
 * Debian's headless Chromium for the web UI tests (`.ci/run` installs it): one fresh profile
 * per test file, removed again on close.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface OpenChromium {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openChromium(options: {
  viewport?: { width: number; height: number };
  /** axe-core is injected as an inline script, which the UI's CSP (script-src 'self') refuses. */
  bypassCSP?: boolean;
  acceptDownloads?: boolean;
} = {}): Promise<OpenChromium> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'slipstream-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: options.viewport ?? { width: 1366, height: 900 },
    bypassCSP: options.bypassCSP,
    acceptDownloads: options.acceptDownloads,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Signs the page in with a workspace token, as a user does on the welcome page. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Workspace token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
}
