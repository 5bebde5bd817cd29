/** Shapes of the internal bridge<->Worker protocol (docs/internal-protocol.md). */
import type { WhitelistSpec } from './whitelist.ts';

export interface BufferSpec {
  maxCapacity: number;
  drainRate: number;
}

export interface ListenerSpec {
  printerId: string;
  workspaceId: string;
  port: number;
  protocol: 'EscPos' | 'Epl' | string;
  /** The printer's name: the page on its HTTP port, and an LPD queue name. */
  displayName: string;
  whitelist: WhitelistSpec;
  buffer: BufferSpec | null;
  idleTimeoutMs: number;
  maxJobBytes: number;
  /** Open TCP connections of the printer (running or waiting); more are refused. */
  maxConnections: number;
  /** Jobs of the printer running at once (until `finalised`); further connections wait unread. */
  maxJobsInFlight: number;
  /** A job still open after this long is ended (`maxJobSeconds`) and finalised with an error. */
  maxJobSeconds: number;
}

export type EndReason = 'closed' | 'idle' | 'stopped' | 'maxJobBytes' | 'maxJobSeconds';

export const DEFAULT_IDLE_TIMEOUT_MS = 2000;
export const DEFAULT_MAX_JOB_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 32;
export const DEFAULT_MAX_JOBS_IN_FLIGHT = 8;
export const DEFAULT_MAX_JOB_SECONDS = 300;

const positive = (v: unknown, fallback: number) => {
  const n = Number(v);
  return n > 0 && Number.isFinite(n) ? n : fallback;
};

/** Validates and fills defaults on one listener from the Worker; null when unusable. */
export function sanitizeListener(raw: unknown): ListenerSpec | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const port = Number(r.port);
  if (typeof r.printerId !== 'string' || !Number.isInteger(port) || port <= 0 || port > 65535) return null;
  const wl = (r.whitelist ?? {}) as Record<string, unknown>;
  const buf = r.buffer as Record<string, unknown> | null | undefined;
  let buffer: BufferSpec | null = null;
  if (buf && typeof buf === 'object') {
    const maxCapacity = Number(buf.maxCapacity);
    const drainRate = Number(buf.drainRate);
    if (maxCapacity > 0 && drainRate > 0 && Number.isFinite(maxCapacity) && Number.isFinite(drainRate)) {
      buffer = { maxCapacity, drainRate };
    }
  }
  const idle = Number(r.idleTimeoutMs);
  const maxJob = Number(r.maxJobBytes);
  return {
    printerId: r.printerId,
    workspaceId: typeof r.workspaceId === 'string' ? r.workspaceId : '',
    port,
    protocol: typeof r.protocol === 'string' ? r.protocol : 'EscPos',
    displayName: typeof r.displayName === 'string' ? r.displayName : '',
    whitelist: {
      enabled: wl.enabled === true,
      entries: Array.isArray(wl.entries) ? wl.entries.filter((e): e is string => typeof e === 'string') : [],
    },
    buffer,
    idleTimeoutMs: idle > 0 && Number.isFinite(idle) ? idle : DEFAULT_IDLE_TIMEOUT_MS,
    maxJobBytes: maxJob > 0 && Number.isFinite(maxJob) ? maxJob : DEFAULT_MAX_JOB_BYTES,
    maxConnections: Math.floor(positive(r.maxConnections, DEFAULT_MAX_CONNECTIONS)),
    maxJobsInFlight: Math.floor(positive(r.maxJobsInFlight, DEFAULT_MAX_JOBS_IN_FLIGHT)),
    maxJobSeconds: positive(r.maxJobSeconds, DEFAULT_MAX_JOB_SECONDS),
  };
}
