/** GET /api/health waits for the newest migration: the Worker's constant names the last file in migrations/. */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { LATEST_MIGRATION } from '../../src/worker/data/schema-version.ts';

it('LATEST_MIGRATION is the newest file in migrations/', () => {
  const files = readdirSync(resolve(import.meta.dirname, '../../migrations')).filter((f) => f.endsWith('.sql')).sort();
  expect(LATEST_MIGRATION).toBe(files.at(-1));
});
