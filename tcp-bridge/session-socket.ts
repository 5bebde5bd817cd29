/**
 * Opens a session WebSocket to a printer's Durable Object (internal-protocol.md section 2):
 * with `sessionId` + `clientAddress` the session starts at once; without, it is a warm spare
 * that starts with its first message (see spares.ts). After `finalised` a session WebSocket
 * is a spare again.
 */
import net from 'node:net';
import tls from 'node:tls';
import WebSocket from 'ws';
import { toWebSocketUrl } from './config.ts';

export interface SessionTarget {
  sessionId: string;
  clientAddress: string;
}

/** The TCP socket under each session WebSocket, known from before the upgrade on. */
const tcpSockets = new WeakMap<WebSocket, { socket: net.Socket | null }>();

/**
 * The session WebSocket's own TCP socket (null until it exists), for callers that must know
 * its local port (spares.ts: a long-lived socket can hold a printer's port).
 */
export function tcpSocketOf(ws: WebSocket): net.Socket | null {
  return tcpSockets.get(ws)?.socket ?? null;
}

export function openSessionSocket(workerUrl: string, secret: string, printerId: string, target: SessionTarget | null): WebSocket {
  const query = target ? `?${new URLSearchParams({ clientAddress: target.clientAddress, sessionId: target.sessionId })}` : '';
  const url = toWebSocketUrl(workerUrl, `/internal/bridge/printers/${encodeURIComponent(printerId)}/session${query}`);
  // The socket may be made inside the constructor, before `ws` exists.
  const holder: { socket: net.Socket | null } = { socket: null };
  const ws = new WebSocket(url, {
    headers: { Authorization: `Bearer ${secret}` },
    perMessageDeflate: false,
    handshakeTimeout: 10_000,
    createConnection: connectReporting(url.startsWith('wss:'), (socket) => (holder.socket = socket)) as unknown as WebSocket.ClientOptions['createConnection'],
  });
  tcpSockets.set(ws, holder);
  ws.binaryType = 'nodebuffer';
  return ws;
}

/** The first message on a spare: turns it into the session `target`. */
export function startMessage(target: SessionTarget): string {
  return JSON.stringify({ type: 'start', sessionId: target.sessionId, clientAddress: target.clientAddress });
}

/** ws's own net/tls connect (ws/lib/websocket.js), reporting the socket it makes. */
function connectReporting(secure: boolean, onSocket: (socket: net.Socket) => void) {
  return (options: net.NetConnectOpts & tls.ConnectionOptions & { socketPath?: string; host?: string }): net.Socket => {
    let socket: net.Socket;
    if (secure) {
      const o = { ...options, path: undefined } as tls.ConnectionOptions;
      if (!o.servername && o.servername !== '') o.servername = net.isIP(options.host ?? '') ? '' : options.host;
      socket = tls.connect(o);
    } else socket = net.connect({ ...options, path: options.socketPath } as net.NetConnectOpts);
    onSocket(socket);
    return socket;
  };
}
