import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

/**
 * Worker and Durable Object tests inside workerd (Cloudflare's Vitest integration), with the
 * real wrangler.toml bindings (D1, R2, Durable Objects) and migrations applied per test file.
 */
const root = resolve(import.meta.dirname, '../..');

export const TEST_ADMIN_WORKSPACE_ID = 'aaaaaaaa-0000-4000-8000-00000000admn'.replace('admn', '0001');

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: resolve(root, 'wrangler.toml') },
      miniflare: {
        bindings: {
          JWT_SECRET: 'test-jwt-signing-key-0123456789abcdef0123456789',
          BRIDGE_SECRET: 'test-bridge-secret-0123456789abcdef',
          ADMIN_WORKSPACE_IDS: TEST_ADMIN_WORKSPACE_ID,
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
