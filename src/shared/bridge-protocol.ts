/**
 * The messages between the Worker and the tcp-bridge (docs/internal-protocol.md describes the
 * routes and when each message is sent): every text frame of the control channel and of a
 * print session is one of the unions below. Both ends import this file and write messages with
 * `encodeMessage`. The bridge reads the Worker's with the parsers here; the Worker reads the
 * bridge's with src/worker/services/bridge-input.ts, which also checks each value's syntax and
 * size (a bridge is a client like any other). Either refuses anything else with a reason for
 * the log. The listener defaults live here and nowhere else.
 *
 * Hand-written (no zod) so that the bridge, which holds a thousand listeners in a small memory
 * budget, loads no schema library.
 */
import type { Transport } from './transports.ts';


// ---- Values ---------------------------------------------------------------------------------

/** How a job's connection ended, as the bridge reports it in `end` (and in a recovered job's `endReason`). */
export const END_REASONS = ['closed', 'idle', 'stopped', 'maxJobBytes', 'maxJobSeconds'] as const;
export type EndReason = (typeof END_REASONS)[number];

/**
 * How a session's job reached the bridge, carried in `start`; absent means `Tcp`. Jobs that
 * arrive as one request (HTTP printers, LPD) take the requests route instead (internal
 * protocol section 4); every transport's name is in src/shared/transports.ts.
 */
export const SESSION_TRANSPORTS = ['Tcp'] as const satisfies readonly Transport[];
export type SessionTransport = (typeof SESSION_TRANSPORTS)[number];

/** What a listener spec field missing from the Worker's message becomes (and the Worker's own defaults, src/worker/config.ts). */
export const LISTENER_DEFAULTS = {
  idleTimeoutMs: 2000,
  maxJobBytes: 16 * 1024 * 1024,
  maxConnections: 32,
  maxJobsInFlight: 8,
  maxJobSeconds: 300,
} as const;

export interface WhitelistSpec {
  enabled: boolean;
  entries: string[];
}

export interface BufferSpec {
  /** Bytes. */
  maxCapacity: number;
  /** Bytes per second (the printer setting bufferDrainRate). */
  drainRate: number;
}

/** One printer the bridge should listen for. */
export interface ListenerSpec {
  printerId: string;
  workspaceId: string;
  port: number;
  protocol: string;
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

// ---- Messages -------------------------------------------------------------------------------

/** Control channel (section 1), Worker to bridge. */
export type WorkerControlMessage =
  | { type: 'listeners'; listeners: ListenerSpec[] }
  | { type: 'pong' };

/**
 * Control channel (section 1), bridge to Worker. `hello` comes first on every connection and
 * again when what it says changes: the bridge's own facts the web UI shows (its LPD port, null
 * when it serves no LPD).
 */
export type BridgeControlMessage =
  | { type: 'hello'; lpdPort: number | null }
  | { type: 'ping' }
  | { type: 'bound'; printerId: string; port: number; ok: true }
  | { type: 'bound'; printerId: string; port: number; ok: false; error: string }
  | { type: 'unbound'; printerId: string; port: number }
  | { type: 'connection'; printerId: string; clientIp: string; allowed: boolean; at: string };

/** Print session (section 2), bridge to Worker; the job's bytes travel as binary frames. */
export type BridgeSessionMessage =
  | { type: 'start'; sessionId: string; clientAddress: string; transport?: SessionTransport }
  | { type: 'buffer'; bufferedBytes: number; bufferedBytesDeltaBps: number }
  | { type: 'end'; reason: EndReason; bytesSent: number };

/** Print session (section 2), Worker to bridge; reply bytes travel as binary frames. */
export type WorkerSessionMessage =
  | { type: 'finalising' }
  | { type: 'finalised'; documentId: string | null };

export type ProtocolMessage = WorkerControlMessage | BridgeControlMessage | BridgeSessionMessage | WorkerSessionMessage;

/** The one way a protocol message becomes a text frame. */
export const encodeMessage = (message: ProtocolMessage): string => JSON.stringify(message);

/** A parser's answer: the message, or why the frame was refused (for the log). */
export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

// ---- Parsers --------------------------------------------------------------------------------

type Fields = Record<string, unknown>;
class Refused extends Error {}
const refuse = (reason: string): never => { throw new Refused(reason); };

function parseWith<T>(text: string, direction: string, read: (type: string, o: Fields) => T): Parsed<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${direction}: not JSON` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: `${direction}: not a JSON object` };
  const o = value as Fields;
  if (typeof o.type !== 'string') return { ok: false, reason: `${direction}: no "type"` };
  try {
    return { ok: true, message: read(o.type, o) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: `${direction} "${o.type}": ${e.message}` };
    throw e;
  }
}

const positive = (v: unknown, fallback: number) => {
  const n = Number(v);
  return n > 0 && Number.isFinite(n) ? n : fallback;
};

/**
 * One listener of a `listeners` message with the defaults filled in; null when it names no
 * printer or no valid port. Lenient on the rest (an older Worker may omit newer fields).
 */
export function parseListener(raw: unknown): ListenerSpec | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Fields;
  const p = Number(r.port);
  if (typeof r.printerId !== 'string' || !Number.isInteger(p) || p <= 0 || p > 65535) return null;
  const wl = (r.whitelist ?? {}) as Fields;
  const buf = r.buffer as Fields | null | undefined;
  let buffer: BufferSpec | null = null;
  if (buf && typeof buf === 'object') {
    const maxCapacity = Number(buf.maxCapacity);
    const drainRate = Number(buf.drainRate);
    if (maxCapacity > 0 && drainRate > 0 && Number.isFinite(maxCapacity) && Number.isFinite(drainRate)) buffer = { maxCapacity, drainRate };
  }
  return {
    printerId: r.printerId,
    workspaceId: typeof r.workspaceId === 'string' ? r.workspaceId : '',
    port: p,
    protocol: typeof r.protocol === 'string' ? r.protocol : 'EscPos',
    displayName: typeof r.displayName === 'string' ? r.displayName : '',
    whitelist: {
      enabled: wl.enabled === true,
      entries: Array.isArray(wl.entries) ? wl.entries.filter((e): e is string => typeof e === 'string') : [],
    },
    buffer,
    idleTimeoutMs: positive(r.idleTimeoutMs, LISTENER_DEFAULTS.idleTimeoutMs),
    maxJobBytes: positive(r.maxJobBytes, LISTENER_DEFAULTS.maxJobBytes),
    maxConnections: Math.floor(positive(r.maxConnections, LISTENER_DEFAULTS.maxConnections)),
    maxJobsInFlight: Math.floor(positive(r.maxJobsInFlight, LISTENER_DEFAULTS.maxJobsInFlight)),
    maxJobSeconds: positive(r.maxJobSeconds, LISTENER_DEFAULTS.maxJobSeconds),
  };
}

/**
 * Control channel, read by the bridge. `invalid` hears of each listener that was left out
 * (no printer id or port); the others are still applied.
 */
export function parseWorkerControl(text: string, invalid: (listener: unknown) => void = () => {}): Parsed<WorkerControlMessage> {
  return parseWith(text, 'control from Worker', (type, o): WorkerControlMessage => {
    if (type === 'pong') return { type };
    if (type !== 'listeners') return refuse('unknown type');
    if (!Array.isArray(o.listeners)) return refuse('listeners must be an array');
    const listeners: ListenerSpec[] = [];
    for (const raw of o.listeners) {
      const spec = parseListener(raw);
      if (spec) listeners.push(spec); else invalid(raw);
    }
    return { type, listeners };
  });
}

/** Print session, read by the bridge. */
export function parseWorkerSession(text: string): Parsed<WorkerSessionMessage> {
  return parseWith(text, 'session from Worker', (type, o): WorkerSessionMessage => {
    if (type === 'finalising') return { type };
    if (type !== 'finalised') return refuse('unknown type');
    if (o.documentId != null && typeof o.documentId !== 'string') refuse('documentId must be a string or null');
    return { type, documentId: (o.documentId as string | null | undefined) ?? null };
  });
}

/** An end reason as the bridge reports it; null for anything else. */
export function parseEndReason(value: unknown): EndReason | null {
  return (END_REASONS as readonly unknown[]).includes(value) ? (value as EndReason) : null;
}
