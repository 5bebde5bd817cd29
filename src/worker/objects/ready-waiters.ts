/** Callers waiting for the printer to be able to print again, each with its own deadline. */
export class ReadyWaiters {
  private readonly waiting = new Set<() => void>();

  /** Resolves when `ready()` is called or after `timeoutMs`, whichever comes first. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiting.add(done);
    });
  }

  ready(): void {
    for (const done of [...this.waiting]) done();
  }
}
