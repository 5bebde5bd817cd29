import { defineConfig } from 'vitest/config';

/**
 * Three kinds of suites, all run by `npm test` one after another (run side by side on two
 * cores, the timing-sensitive socket and browser tests would compete with the engines' CPU):
 * - engines: pure TypeScript protocol engines and rasterising, plain Node.
 * - workers: the Worker and its Durable Objects inside workerd (Cloudflare's Vitest plugin),
 *   configured in test/workers/vitest.config.ts.
 * - e2e: a real `wrangler dev` plus the real tcp-bridge, driven over HTTP and TCP sockets
 *   (and headless Chromium for the web UI).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engines',
          include: ['test/engines/**/*.test.ts', 'test/web/**/*.test.ts', 'test/bridge-unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      './test/workers/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
