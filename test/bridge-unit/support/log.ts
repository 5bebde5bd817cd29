import { createLogger } from '../../../tcp-bridge/log.ts';

/** A bridge logger whose lines the test can read (BRIDGE_TEST_LOG=1 also prints them, at debug). */
export function capturedLog() {
  const lines: string[] = [];
  const log = createLogger(process.env.BRIDGE_TEST_LOG ? 'debug' : 'info', (l) => {
    lines.push(l);
    if (process.env.BRIDGE_TEST_LOG) process.stdout.write(l);
  });
  const events = (name: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === name);
  return { lines, log, events };
}
