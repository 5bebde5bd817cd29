/**
 * A warm spare the Worker has closed can still look open to the bridge: its close is queued
 * behind the new TCP connection that takes it. Such a spare never carried the session's
 * `start`, so the job must not be recovered as "upstream connection lost": it starts over on
 * a WebSocket of its own (the Worker is up), or is received whole as an offline job (the
 * Worker is away). Made deterministic here: the session is lent an open spare, the fake Worker
 * then drops it, and only after the bridge saw the close does the client send its job.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { RecoveryQueue } from '../../tcp-bridge/recovery.ts';
import { OFFLINE_MESSAGE, Session } from '../../tcp-bridge/session.ts';
import { openSessionSocket } from '../../tcp-bridge/session-socket.ts';
import { parseListener, type ListenerSpec } from '../../src/shared/bridge-protocol.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { connect, waitClosed } from './support/tcp.ts';

const { lines, log } = capturedLog();

let fake: FakeWorker;
let recovery: RecoveryQueue;
let server: net.Server;
let port: number;
/** The spare lent to the next session, and how the session's spares went back to the pool. */
let spare: WebSocket;
let lent: Promise<void>;
const givenBack: Array<{ ws: WebSocket | null; lent: boolean }> = [];
let sessions: Session[] = [];

beforeEach(async () => {
  lines.length = 0;
  givenBack.length = 0;
  sessions = [];
  fake = new FakeWorker();
  await fake.start();
  recovery = new RecoveryQueue({ workerUrl: fake.url, secret: fake.secret, log, spillDir: null });
  spare = openSessionSocket(fake.url, fake.secret, 'printer-0', null);
  await new Promise((r) => spare.once('open', r));
  await fake.waitFor(() => fake.openSpares('printer-0') === 1, 5000, 'spare open');
  let markLent!: () => void;
  lent = new Promise((r) => (markLent = r));
  server = net.createServer((socket) => {
    let spec: ListenerSpec | null = null;
    const session = new Session(socket, '127.0.0.1', {
      workerUrl: fake.url,
      secret: fake.secret,
      log,
      recovery,
      spec: () => (spec ??= parseListener({ ...listenerSpec(0, port), idleTimeoutMs: 5000 })!),
      buffer: () => null,
      takeSpare: () => {
        markLent();
        return spare;
      },
      giveBack: (ws, wasLent) => givenBack.push({ ws, lent: wasLent }),
      onDone: () => {},
    });
    sessions.push(session);
    session.start();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});

afterEach(async () => {
  recovery.stop();
  for (const { ws } of givenBack) ws?.terminate();
  await new Promise((r) => server.close(r));
  await fake.stop();
});

/** Connects, waits until the session holds the spare, lets `drop` kill it, and waits until the bridge saw it close. */
async function connectOnDeadSpare(drop: () => Promise<void>): Promise<net.Socket> {
  const client = await connect(port);
  client.on('error', () => {});
  await lent;
  const closed = new Promise((r) => spare.once('close', r));
  await drop();
  await closed;
  return client;
}

describe('a lent spare that turns out dead', () => {
  it('starts the session over on its own WebSocket while the Worker is up', async () => {
    const client = await connectOnDeadSpare(async () => fake.dropSpares('printer-0'));
    client.end('printed on a dead spare\n');
    await waitClosed(client);
    const [doc] = await fake.waitForDocuments(1, 10_000);
    expect(doc.via).toBe('session');
    expect(doc.spare).toBe(false);
    expect(doc.sessionId).toBe(sessions[0].id);
    expect(doc.bytes.toString()).toBe('printed on a dead spare\n');
    expect(sessions[0].outcome).toBe('closed');
    expect(lines.some((l) => l.includes('recovery.queued'))).toBe(false);
    // The dead spare went back as lost (the pool replaces it); the session's own socket as reusable.
    expect(givenBack.map((g) => [g.ws !== null, g.lent])).toEqual([[false, true], [true, false]]);
  });

  it('receives the whole job offline while the Worker is away, and recovers it as such', async () => {
    const workerPort = fake.port;
    const client = await connectOnDeadSpare(() => fake.stop());
    client.end('printed during outage\n');
    const closed = await waitClosed(client);
    expect(closed.error).toBeUndefined();
    await fake.start(workerPort);
    recovery.kick();
    const [doc] = await fake.waitForDocuments(1, 15_000);
    expect(doc.via).toBe('recovered');
    expect(doc.error).toBe(OFFLINE_MESSAGE);
    expect(doc.endReason).toBe('closed');
    expect(doc.bytes.toString()).toBe('printed during outage\n');
  });
});
