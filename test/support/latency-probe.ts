/**
 * "Another printer printing every 250 ms" (issue 17): a status query (DLE EOT 1) to a printer
 * every `everyMs`, timing the round trip from connect to its answer. The answer comes from the
 * printer's Durable Object, so the figure is how long that printer waited for the service.
 */
import net from 'node:net';

export interface Probe {
  samples: number[];
  failures: number;
  stop(): Promise<void>;
}

function statusRoundTrip(port: number, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const s = net.connect(port, '127.0.0.1', () => s.write(Buffer.from([0x10, 0x04, 0x01])));
    const timer = setTimeout(() => { s.destroy(); reject(new Error('no status answer')); }, timeoutMs);
    s.once('data', () => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      s.end();
      resolve(ms);
    });
    s.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

/**
 * Starts `measure` every `everyMs` (each in its own time, overlapping when slow); every
 * measurement's ms lands in `samples`, every throw counts as a failure. `stop` waits for those
 * in flight.
 */
export function repeatProbe(everyMs: number, measure: () => Promise<number>): Probe {
  const probe: Probe = { samples: [], failures: 0, stop: async () => {} };
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const p = measure().then((ms) => { probe.samples.push(ms); }, () => { probe.failures++; });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, everyMs);
  probe.stop = async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
  };
  return probe;
}

export function startProbe(port: number, everyMs = 250, timeoutMs = 30_000): Probe {
  return repeatProbe(everyMs, () => statusRoundTrip(port, timeoutMs));
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
