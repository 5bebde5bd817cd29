/**
 * Builds everything the Worker serves as static assets into public/: the web UI (web/,
 * via scripts/build-web.ts) and Swagger UI (from the swagger-ui-dist package), so nothing
 * is fetched from a CDN at run time; and the bundled tcp-bridge (scripts/build-bridge.ts).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export async function buildAssets(): Promise<void> {
  const { buildWeb } = (await import('./build-web.ts')) as { buildWeb: () => Promise<void> };
  const { buildBridge } = await import('./build-bridge.ts');
  await Promise.all([buildWeb(), buildBridge()]);
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const out = resolve(root, 'public/swagger-ui');
  mkdirSync(out, { recursive: true });
  for (const f of ['swagger-ui.css', 'swagger-ui-bundle.js']) copyFileSync(resolve(dist, f), resolve(out, f));
  copyFileSync(resolve(root, 'scripts/swagger-ui-init.js'), resolve(out, 'swagger-ui-init.js'));
}

if (import.meta.url === `file://${process.argv[1]}`) await buildAssets();
