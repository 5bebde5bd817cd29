import { applyD1Migrations, env } from 'cloudflare:test';

// Storage is isolated per test file; apply the schema once for each.
await applyD1Migrations((env as unknown as { DB: D1Database }).DB, (env as unknown as { TEST_MIGRATIONS: never }).TEST_MIGRATIONS);
