/**
 * The printer port block belongs to printers (issue 31). `npm start` refuses settings under which
 * a printer's port could be taken by someone else:
 * - a block overlapping the operating system's ephemeral range, from which the kernel picks the
 *   local port of every outgoing connection and of every listener on port 0 (workerd's loopback
 *   sockets, the bridge's connections to the Worker);
 * - a fixed port of the service itself (HTTP `PORT`, the inspector with `INSPECT=<port>`) inside it.
 * Every other socket of the service is on a port the kernel picks, so outside the block.
 */
import { readFileSync } from 'node:fs';
import { printerPortBlock, readSettings, type PortBlock } from '../src/worker/config.ts';
import type { Env } from '../src/worker/env.ts';

export const EPHEMERAL_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';

export interface PortRange {
  first: number;
  last: number;
}

/** The kernel's ephemeral port range; null where the system does not say (not Linux). */
export function ephemeralPortRange(file = EPHEMERAL_RANGE_FILE): PortRange | null {
  try {
    const [first, last] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(first) && Number.isInteger(last) ? { first, last } : null;
  } catch {
    return null;
  }
}

/**
 * `INSPECT`: unset, empty or `0`: no inspector; `1`: on a port the system picks (in the ephemeral
 * range, so outside the block); another number: that port. Undefined for a value that is none of these.
 */
export function inspectorPort(value: string | undefined): number | null | undefined {
  const v = (value ?? '').trim();
  if (v === '' || v === '0') return null;
  if (v === '1') return 0;
  const port = Number(v);
  return Number.isInteger(port) && port > 1 && port <= 65535 ? port : undefined;
}

const overlaps = (a: PortRange, b: PortRange) => a.first <= b.last && b.first <= a.last;
const range = (r: PortRange) => `${r.first}–${r.last}`;

/** Why these settings cannot start, or null. `settings` are the Worker's (PRINTER_PORT_BASE, PRINTER_PORT_COUNT). */
export function portBlockProblem(
  settings: Record<string, string>,
  fixed: { PORT: number; INSPECT: string | undefined },
  ephemeral: PortRange | null = ephemeralPortRange(),
): string | null {
  const block: PortBlock = printerPortBlock(readSettings(settings as unknown as Env));
  const blockText = `the printer port block ${range(block)} (PRINTER_PORT_BASE=${block.first - 1}, PRINTER_PORT_COUNT=${block.last - block.first + 1})`;
  if (ephemeral && overlaps(block, ephemeral)) {
    return `${blockText} overlaps the operating system's ephemeral port range ${range(ephemeral)} (${EPHEMERAL_RANGE_FILE}), ` +
      'from which outgoing connections take their ports at random. Choose a PRINTER_PORT_BASE (and PRINTER_PORT_COUNT) ' +
      `whose block lies outside it, e.g. the default PRINTER_PORT_BASE=9100, or below ${ephemeral.first - 1}.`;
  }
  const inspector = inspectorPort(fixed.INSPECT);
  if (inspector === undefined) return `INSPECT=${fixed.INSPECT} is not 0, 1 or a port number.`;
  for (const [setting, port] of [['PORT', fixed.PORT], ['INSPECT', inspector]] as const) {
    if (port && port >= block.first && port <= block.last) {
      return `${setting}=${port} is inside ${blockText}, whose ports belong to printers: choose a port outside it.`;
    }
  }
  return null;
}
