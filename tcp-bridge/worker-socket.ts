/**
 * Every WebSocket the bridge opens to the Worker (control channel, print sessions): bearer
 * secret, no compression, 10 s handshake, and its TCP socket known from before the upgrade on
 * (`tcpSocketOf`), for corking writes (cork.ts) and for finding a spare that holds a printer's
 * port as its local port (spares.ts).
 */
import net from 'node:net';
import tls from 'node:tls';
import WebSocket from 'ws';
import { BRIDGE_USER_AGENT } from './version.ts';

const tcpSockets = new WeakMap<WebSocket, { socket: net.Socket | null }>();

export function openWorkerSocket(url: string, secret: string): WebSocket {
  // The socket may be made inside the constructor, before `ws` exists.
  const holder: { socket: net.Socket | null } = { socket: null };
  const ws = new WebSocket(url, {
    headers: { Authorization: `Bearer ${secret}`, 'User-Agent': BRIDGE_USER_AGENT },
    perMessageDeflate: false,
    handshakeTimeout: 10_000,
    createConnection: connectReporting(url.startsWith('wss:'), (socket) => (holder.socket = socket)) as unknown as WebSocket.ClientOptions['createConnection'],
  });
  tcpSockets.set(ws, holder);
  return ws;
}

/** The WebSocket's own TCP socket; null until it exists (or for one not opened here). */
export function tcpSocketOf(ws: WebSocket): net.Socket | null {
  return tcpSockets.get(ws)?.socket ?? null;
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
