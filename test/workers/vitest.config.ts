import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { TEST_ADMIN_SECRET, TEST_ADMIN_WORKSPACE_ID, TEST_BRIDGE_SECRET, TEST_JWT_SECRET } from './constants.ts';

/**
 * Worker and Durable Object tests inside workerd (Cloudflare's Vitest integration), with the
 * real wrangler.toml bindings (D1, R2, Durable Objects) and migrations applied per test file.
 */
const root = resolve(import.meta.dirname, '../..');

export { TEST_ADMIN_WORKSPACE_ID };

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: resolve(root, 'wrangler.toml') },
      miniflare: {
        bindings: {
          JWT_SECRET: TEST_JWT_SECRET,
          BRIDGE_SECRET: TEST_BRIDGE_SECRET,
          ADMIN_WORKSPACE_IDS: TEST_ADMIN_WORKSPACE_ID,
          ADMIN_SECRET: TEST_ADMIN_SECRET,
          // Every request here comes from one address; limits.test.ts checks the buckets directly.
          RATE_LIMIT_PER_MINUTE: '1000000',
          // Images just printed may be deleted at once (tests delete what they just made).
          MEDIA_KEEP_RECENT_MS: '1',
          TEST_MIGRATIONS: await readD1Migrations(resolve(root, 'migrations')),
        },
      },
    })),
  ],
  test: {
    name: 'workers',
    root,
    include: ['test/workers/**/*.test.ts'],
    setupFiles: ['test/workers/apply-migrations.ts'],
    testTimeout: 30_000,
  },
});
