/** Polls `fn` until it returns a truthy value, or fails after `timeoutMs` naming `what`. */
export async function pollUntil<T>(
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeoutMs, everyMs, what }: { timeoutMs: number; everyMs: number; what: string },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
