import { defineConfig } from 'vitest/config';

/** Runs only the web UI's unit tests: `vitest run --config test/web/vitest.config.ts`. */
export default defineConfig({
  test: { include: ['test/web/**/*.test.ts'], environment: 'node', root: new URL('../..', import.meta.url).pathname },
});
