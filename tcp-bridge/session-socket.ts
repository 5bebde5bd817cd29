/**
 * Opens a session WebSocket to a printer's Durable Object (internal-protocol.md section 2):
 * with `sessionId` + `clientAddress` the session starts at once; without, it is a warm spare
 * that starts with its first message (see spares.ts). After `finalised` a session WebSocket
 * is a spare again.
 */
import type WebSocket from 'ws';
import { openWorkerSocket } from './worker-socket.ts';
import { toWebSocketUrl } from './config.ts';
import { encodeMessage } from '../src/shared/bridge-protocol.ts';

export interface SessionTarget {
  sessionId: string;
  clientAddress: string;
}

export function openSessionSocket(workerUrl: string, secret: string, printerId: string, target: SessionTarget | null): WebSocket {
  const query = target ? `?${new URLSearchParams({ clientAddress: target.clientAddress, sessionId: target.sessionId })}` : '';
  const ws = openWorkerSocket(toWebSocketUrl(workerUrl, `/internal/bridge/printers/${encodeURIComponent(printerId)}/session${query}`), secret);
  ws.binaryType = 'nodebuffer';
  return ws;
}

/** The first message on a spare: turns it into the session `target`. */
export function startMessage(target: SessionTarget): string {
  return encodeMessage({ type: 'start', sessionId: target.sessionId, clientAddress: target.clientAddress });
}
