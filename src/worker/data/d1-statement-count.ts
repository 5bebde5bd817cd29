/**
 * Counts the D1 statements this isolate executes, for the storage benchmark's "D1 statements per
 * document" (bench/storage.bench.ts). Off unless the `COUNT_D1_STATEMENTS` setting is "1": then
 * the D1 binding's prototypes are wrapped once, so every use in the isolate (Worker routes and
 * Durable Objects alike) is counted without threading anything through the code.
 */
let statements = 0;
let installed = false;

export function countD1Statements(env: { DB: D1Database; COUNT_D1_STATEMENTS?: string }): void {
  if (installed || env.COUNT_D1_STATEMENTS !== '1') return;
  installed = true;
  const dbProto = Object.getPrototypeOf(env.DB) as { batch: (s: unknown[]) => Promise<unknown> };
  const batch = dbProto.batch;
  dbProto.batch = function (this: unknown, s: unknown[]) {
    statements += s.length;
    return batch.call(this, s);
  };
  const stmtProto = Object.getPrototypeOf(env.DB.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
  for (const method of ['run', 'all', 'first', 'raw']) {
    const original = stmtProto[method];
    stmtProto[method] = function (this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    };
  }
}

export function d1StatementCount(): number {
  return statements;
}
