/**
 * The newest D1 migration this Worker's code needs (the last file in migrations/; a test checks
 * they agree). `GET /api/health` is ready only once it is applied (wrangler and the test pool
 * both record applied migrations in `d1_migrations`).
 */
export const LATEST_MIGRATION = '0007_cloud_print.sql';

export async function latestMigrationApplied(db: D1Database): Promise<boolean> {
  try {
    return (await db.prepare('SELECT 1 FROM d1_migrations WHERE name = ?').bind(LATEST_MIGRATION).first()) !== null;
  } catch {
    // No migrations table yet: nothing is applied.
    return false;
  }
}
