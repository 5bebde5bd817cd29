import ipaddr from 'ipaddr.js';
import { normalizeClientAddress } from '../../shared/whitelist.ts';
import { SESSION_TRANSPORTS, type SessionTransport } from '../../shared/bridge-protocol.ts';

/**
 * What the Worker accepts from a bridge (docs/contract/extensions.md "Boundaries"): every field of a control
 * or session message checked for its syntax and size before anything is stored, timestamps
 * set by the Worker. A bridge is a client like any other: a site's bridge runs on someone's
 * LAN with a token any workspace can create.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (reason: string): Parsed<never> => ({ ok: false, reason });

/** Printer ids are UUIDs (schemas/printer.ts), lower-cased everywhere the Worker keys on them. */
const PRINTER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A bridge's session id: its own UUIDs, or anything id-like of a bounded length. */
const SESSION_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** Bind errors and recovery errors end up in a runtime status or a document's error list. */
export const MAX_BRIDGE_ERROR_CHARS = 500;

export function printerIdOf(value: unknown): string | null {
  return typeof value === 'string' && PRINTER_ID.test(value) ? value.toLowerCase() : null;
}

export function sessionIdOf(value: unknown): string | null {
  return typeof value === 'string' && SESSION_ID.test(value) ? value : null;
}

/** A TCP client's address as the bridge saw it: an IPv4 or IPv6 address (normalised), else null. */
export function clientAddressOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64 || !ipaddr.isValid(value) || value.includes('%')) return null;
  return normalizeClientAddress(value);
}

/** Free text from a bridge (an error message), cut to a bounded size. */
export function boundedText(value: unknown, max = MAX_BRIDGE_ERROR_CHARS): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** A byte count: a non-negative safe integer, else null. */
export function byteCountOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

// ---- the control channel (docs/internal-protocol.md section 1) ----------------------------

export type ControlMessage =
  | { type: 'hello'; lpdPort: number | null }
  | { type: 'ping' }
  | { type: 'bound'; printerId: string; port: number; ok: boolean; error?: string }
  | { type: 'unbound'; printerId: string }
  | { type: 'connection'; printerId: string; clientIp: string; allowed: boolean };

/** Longer control messages are refused unread: none of the real ones comes near it. */
export const MAX_CONTROL_MESSAGE_CHARS = 4096;

export function parseControlMessage(data: unknown): Parsed<ControlMessage> {
  if (typeof data !== 'string') return bad('not a text frame');
  const parsed = parseObject(data);
  if (!parsed.ok) return parsed;
  const msg = parsed.value;
  if (msg.type === 'ping') return ok({ type: 'ping' });
  if (msg.type === 'hello') {
    const lpdPort = msg.lpdPort;
    if (lpdPort !== null && (typeof lpdPort !== 'number' || !Number.isInteger(lpdPort) || lpdPort < 1 || lpdPort > 65535)) return bad('lpdPort is not a TCP port or null');
    return ok({ type: 'hello', lpdPort });
  }
  if (msg.type !== 'bound' && msg.type !== 'unbound' && msg.type !== 'connection') return bad(`unknown type ${JSON.stringify(String(msg.type)).slice(0, 40)}`);
  const printerId = printerIdOf(msg.printerId);
  if (!printerId) return bad('printerId is not a printer id');
  switch (msg.type) {
    case 'bound': {
      const port = msg.port;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return bad('port is not a TCP port');
      return ok({ type: 'bound', printerId, port, ok: msg.ok === true, error: boundedText(msg.error) });
    }
    case 'unbound':
      return ok({ type: 'unbound', printerId });
    case 'connection': {
      const clientIp = clientAddressOf(msg.clientIp);
      if (!clientIp) return bad('clientIp is not an IP address');
      if (typeof msg.allowed !== 'boolean') return bad('allowed is not a boolean');
      return ok({ type: 'connection', printerId, clientIp, allowed: msg.allowed });
    }
  }
}

/**
 * Logs what a bridge sent that the Worker dropped, with the reason: at most `perMinute` lines a
 * minute per hub (a misbehaving bridge must not flood the log), then one line with the count.
 */
export class DropLog {
  private windowStart = 0;
  private logged = 0;
  private suppressed = 0;
  constructor(private readonly who: () => string, private readonly perMinute = 20) {}

  drop(what: string, reason: string, printerId?: string): void {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      if (this.suppressed) console.warn(JSON.stringify({ event: 'bridge.dropped.suppressed', bridge: this.who(), count: this.suppressed }));
      this.windowStart = now;
      this.logged = 0;
      this.suppressed = 0;
    }
    if (this.logged >= this.perMinute) {
      this.suppressed++;
      return;
    }
    this.logged++;
    console.warn(JSON.stringify({ event: 'bridge.dropped', bridge: this.who(), message: what, ...(printerId && { printerId }), reason }));
  }
}

// ---- a print session's text frames (docs/internal-protocol.md section 2) ------------------

export type SessionControl =
  | { type: 'start'; sessionId: string; clientAddress: string; transport?: SessionTransport }
  | { type: 'buffer'; bufferedBytes: number; bufferedBytesDeltaBps: number }
  | { type: 'end'; reason: unknown; bytesSent: number | null };

export function parseSessionControl(text: string): Parsed<SessionControl> {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const msg = parsed.value;
  switch (msg.type) {
    case 'start': {
      const sessionId = msg.sessionId === undefined ? crypto.randomUUID() : sessionIdOf(msg.sessionId);
      const clientAddress = msg.clientAddress === undefined ? 'unknown' : clientAddressOf(msg.clientAddress);
      if (!sessionId) return bad('sessionId is not a session id');
      if (!clientAddress) return bad('clientAddress is not an IP address');
      if (msg.transport !== undefined && !(SESSION_TRANSPORTS as readonly unknown[]).includes(msg.transport)) return bad('transport is not one this Worker knows');
      return ok({ type: 'start', sessionId, clientAddress, ...(msg.transport !== undefined && { transport: msg.transport as SessionTransport }) });
    }
    case 'buffer': {
      const bufferedBytes = byteCountOf(msg.bufferedBytes);
      const rate = msg.bufferedBytesDeltaBps;
      if (bufferedBytes === null) return bad('bufferedBytes is not a byte count');
      if (typeof rate !== 'number' || !Number.isFinite(rate) || Math.abs(rate) > 1e12) return bad('bufferedBytesDeltaBps is not a rate');
      return ok({ type: 'buffer', bufferedBytes, bufferedBytesDeltaBps: rate });
    }
    case 'end':
      return ok({ type: 'end', reason: msg.reason, bytesSent: msg.bytesSent === undefined ? null : byteCountOf(msg.bytesSent) });
    default:
      return bad(`unknown type ${JSON.stringify(String(msg.type)).slice(0, 40)}`);
  }
}

function parseObject(text: string): Parsed<Record<string, unknown>> {
  if (text.length > MAX_CONTROL_MESSAGE_CHARS) return bad(`longer than ${MAX_CONTROL_MESSAGE_CHARS} characters`);
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? ok(parsed as Record<string, unknown>) : bad('not a JSON object');
  } catch {
    return bad('not JSON');
  }
}
