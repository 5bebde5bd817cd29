import { defineConfig } from 'vitest/config';

/**
 * Three kinds of suites, all run by `npm test` one after another (run side by side on two
 * cores, the timing-sensitive socket and browser tests would compete with the engines' CPU):
 * - engines: pure TypeScript protocol engines and rasterising, plain Node.
 * - bridge-unit: the tcp-bridge's logic, and the bridge process against a fake Worker.
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
          include: ['test/engines/**/*.test.ts', 'test/web/**/*.test.ts', 'test/repo/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        // The bridge against a fake Worker over real sockets. One file at a time: a test that
        // stops and restarts its fake Worker on the same port must not race another file's
        // outgoing connections for that port.
        test: {
          name: 'bridge-unit',
          include: ['test/bridge-unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          fileParallelism: false,
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
