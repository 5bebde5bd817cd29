/**
 * Warm spares (docs/internal-protocol.md section 2, tcp-bridge/spares.ts): the real bridge
 * against the fake Worker. A connection takes its printer's open spare (sending `start`
 * before any byte), the spare is replaced, connections without a spare fall back to a session
 * opened with its query parameters, and spares never outlive their listener.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, type RunningBridge } from '../../tcp-bridge/bridge.ts';
import { MAX_EXTRA_SPARES, SparePool } from '../../tcp-bridge/spares.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { connect, freePorts, printAndClose, waitClosed } from './support/tcp.ts';

const { lines, log, events } = capturedLog();

let fake: FakeWorker;
let bridge: RunningBridge;
let ports: number[];

const listener = (i: number, extra: Record<string, unknown> = {}) => listenerSpec(i, ports[i], extra);

const spareOpen = (i: number) => fake.waitFor(() => bridge.registry.spares.stateOf(`printer-${i}`) === 'open' && fake.openSpares(`printer-${i}`) === 1, 5000, `spare of printer-${i} open`);
const upgrades = (i: number) => fake.spareUpgrades.filter((u) => u.printerId === `printer-${i}`).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(async () => {
  lines.length = 0;
  fake = new FakeWorker();
  await fake.start();
  ports = await freePorts(3);
  fake.listeners = [listener(0), listener(1)];
  bridge = startBridge({ workerUrl: fake.url, secret: fake.secret, bindHost: '0.0.0.0', logLevel: 'info', stateDir: '', maxJobsTotal: 256 }, log);
  await spareOpen(0);
  await spareOpen(1);
});

afterEach(async () => {
  await bridge.stop();
  await fake.stop();
});

describe('warm spares', () => {
  it('opens one spare per listening printer after the bind', () => {
    expect(upgrades(0)).toBe(1);
    expect(upgrades(1)).toBe(1);
    expect(fake.openSessions).toBe(0);
    expect(fake.documents).toHaveLength(0);
  });

  it('a connection takes the spare: start first, then the bytes; once finalised the socket is the spare again', async () => {
    const payload = Buffer.concat([Buffer.from('\x1b@spare job\n'), Buffer.alloc(20_000, 0x41)]);
    await printAndClose(ports[0], payload);
    const [doc] = await fake.waitForDocuments(1);
    expect(doc).toMatchObject({ printerId: 'printer-0', spare: true, clientAddress: '127.0.0.1', reason: 'closed' });
    expect(doc.bytes.equals(payload)).toBe(true);
    // The first frame on the spare was the start message, naming the session the bridge logs.
    const first = fake.spareFirstMessages.filter((m) => m.printerId === 'printer-0');
    expect(first).toHaveLength(1);
    expect(first[0].binary).toBe(false);
    expect(JSON.parse(first[0].text!)).toEqual({ type: 'start', sessionId: doc.sessionId, clientAddress: '127.0.0.1' });
    await fake.waitFor(() => events('connection').length === 1);
    expect(events('connection')[0]).toMatchObject({ sessionId: doc.sessionId, spare: true, outcome: 'closed', bytesIn: payload.length });
    // Given back: the same socket is the printer's spare again (no second upgrade), and the
    // next connection uses it.
    await spareOpen(0);
    expect(fake.reusedSessions).toBe(1);
    await printAndClose(ports[0], 'second\n');
    const docs = await fake.waitForDocuments(2);
    expect(docs[1]).toMatchObject({ spare: true });
    expect(docs[1].bytes.toString()).toBe('second\n');
    expect(docs[1].sessionId).not.toBe(doc.sessionId);
    await spareOpen(0);
    expect(upgrades(0)).toBe(1);
    expect(fake.reusedSessions).toBe(2);
  });

  it('the start message leaves with the first bytes (or the end), not before', async () => {
    const s = await connect(ports[1]);
    await sleep(200);
    expect(fake.spareFirstMessages.filter((m) => m.printerId === 'printer-1')).toHaveLength(0);
    expect(fake.openSpares('printer-1')).toBe(1); // lent, still unstarted as the Worker sees it
    s.end('late bytes\n');
    const [doc] = await fake.waitForDocuments(1);
    expect(doc).toMatchObject({ printerId: 'printer-1', spare: true });
    expect(doc.bytes.toString()).toBe('late bytes\n');
    expect(JSON.parse(fake.spareFirstMessages.find((m) => m.printerId === 'printer-1')!.text!)).toMatchObject({ type: 'start', sessionId: doc.sessionId });
  });

  it('a spare lost during its session is replaced by a new upgrade', async () => {
    const s = await connect(ports[0]);
    s.write('lost job\n');
    await fake.waitFor(() => fake.openSessions === 1, 5000, 'session started');
    const before = upgrades(0);
    fake.dropSessions();
    await fake.waitFor(() => upgrades(0) === before + 1, 5000, 'replacement upgrade');
    await spareOpen(0);
    s.destroy();
  });

  it('status replies work on a spare session', async () => {
    const s = await connect(ports[1]);
    const got: Buffer[] = [];
    s.on('data', (c: Buffer) => got.push(c));
    s.write(Buffer.from([0x10, 0x04, 1]));
    await fake.waitFor(() => got.length > 0);
    s.end();
    await waitClosed(s);
    const [doc] = await fake.waitForDocuments(1);
    expect(Buffer.concat(got)).toEqual(Buffer.from([0x16]));
    expect(doc).toMatchObject({ spare: true, bytesSent: 1 });
  });

  it('falls back to a session with query parameters when no spare is open, bytes queued in order', async () => {
    fake.rejectSparesWith = 503;
    fake.setListeners([listener(0), listener(1), listener(2)]);
    await fake.waitFor(() => events('spare.rejected').find((l) => l.printerId === 'printer-2'), 5000, 'spare rejected');
    expect(bridge.registry.spares.stateOf('printer-2')).toBe('failed');
    fake.upgradeDelayMs = 200;
    const s = await connect(ports[2]);
    const parts: Buffer[] = [];
    for (let i = 0; i < 30; i++) {
      const b = Buffer.from(`line ${i}\n`);
      parts.push(b);
      s.write(b);
      await sleep(2);
    }
    s.end();
    const [doc] = await fake.waitForDocuments(1);
    expect(doc).toMatchObject({ printerId: 'printer-2', spare: false, clientAddress: '127.0.0.1' });
    expect(doc.bytes.toString()).toBe(Buffer.concat(parts).toString());
    await fake.waitFor(() => events('connection').length === 1);
    expect(events('connection')[0]).toMatchObject({ spare: false, outcome: 'closed' });
    // A refused spare is not retried by itself ...
    await sleep(600);
    expect(events('spare.rejected').filter((l) => l.printerId === 'printer-2')).toHaveLength(1);
    // ... but on the next listeners set.
    fake.rejectSparesWith = null;
    fake.upgradeDelayMs = 0;
    fake.setListeners([listener(0), listener(1), listener(2)]);
    await spareOpen(2);
  });

  it('concurrent connections: one takes the spare, the others fall back; every job arrives', async () => {
    await Promise.all([printAndClose(ports[0], 'a\n'), printAndClose(ports[0], 'b\n'), printAndClose(ports[0], 'c\n')]);
    const docs = await fake.waitForDocuments(3);
    expect(docs.map((d) => d.bytes.toString()).sort()).toEqual(['a\n', 'b\n', 'c\n']);
    expect(docs.filter((d) => d.spare).length).toBeGreaterThanOrEqual(1);
    expect(docs.filter((d) => !d.spare).length).toBeGreaterThanOrEqual(1);
    // The spare is open again, and the fallback sessions' sockets are kept as extra spares.
    const fallbacks = docs.filter((d) => !d.spare).length;
    expect(fallbacks).toBeLessThanOrEqual(MAX_EXTRA_SPARES);
    await fake.waitFor(() => bridge.registry.spares.stateOf('printer-0') === 'open' && fake.openSpares('printer-0') === 1 + fallbacks, 5000, 'spare and extra spares open');
  });

  it('back to back: the socket of a connection that found the spare lent is kept as an extra spare, so steady printing upgrades no more', async () => {
    // Each job is finalised 300 ms after its end; the client connects again every 200 ms, so
    // its next connection always arrives while the last job is being finalised.
    fake.finaliseDelayMs = 300;
    for (let i = 0; i < 8; i++) {
      await printAndClose(ports[0], `job ${i}\n`);
      await sleep(200);
    }
    const docs = await fake.waitForDocuments(8);
    const bySession = new Map(docs.map((d) => [d.sessionId, d]));
    const inOrder = events('connection').map((c) => bySession.get(c.sessionId)!);
    // The first overlap upgrades a session of its own; from then on the jobs alternate
    // between the spare and the kept socket.
    expect(inOrder.filter((d) => !d.spare).length).toBeLessThanOrEqual(2);
    expect(docs.slice(-5).every((d) => d.spare)).toBe(true);
    expect(upgrades(0)).toBe(1);
    // The extra spare is open at the Worker beside the spare, and closes with the bridge.
    await fake.waitFor(() => fake.openSpares('printer-0') === 2, 5000, 'spare and extra spare open');
    await bridge.stop();
    await fake.waitFor(() => fake.openSpares() === 0, 5000, 'spares closed');
  });

  it('a printer whose session answers 404 gets no spare until the next listeners set', async () => {
    fake.gone.add('printer-2');
    fake.setListeners([listener(0), listener(1), listener(2)]);
    await fake.waitFor(() => events('spare.rejected').find((l) => l.printerId === 'printer-2' && l.status === 404), 5000, '404');
    await sleep(600);
    expect(events('spare.rejected').filter((l) => l.printerId === 'printer-2')).toHaveLength(1);
    expect(bridge.registry.spares.stateOf('printer-2')).toBe('failed');
  });

  it('a spare the Worker drops (1006) is reopened with backoff, not at once', async () => {
    const t0 = Date.now();
    fake.dropSpares('printer-0');
    await fake.waitFor(() => upgrades(0) === 2, 5000, 'reopened spare');
    const reopenedAfter = fake.spareUpgrades.filter((u) => u.printerId === 'printer-0')[1].at - t0;
    expect(reopenedAfter).toBeGreaterThanOrEqual(100);
    await spareOpen(0);
    // Dropped again right away: the delay grows (no spinning).
    const t1 = Date.now();
    fake.dropSpares('printer-0');
    await fake.waitFor(() => upgrades(0) === 3, 5000, 'reopened again');
    expect(fake.spareUpgrades.filter((u) => u.printerId === 'printer-0')[2].at - t1).toBeGreaterThanOrEqual(250);
    expect(upgrades(1)).toBe(1);
  });

  it('a spare is closed with its listener and not reopened; the others stay', async () => {
    fake.setListeners([listener(1)]);
    await fake.waitFor(() => fake.messages('unbound').find((m) => m.printerId === 'printer-0'));
    await fake.waitFor(() => fake.openSpares('printer-0') === 0, 5000, 'spare closed');
    expect(bridge.registry.spares.stateOf('printer-0')).toBe('none');
    await sleep(600);
    expect(upgrades(0)).toBe(1);
    expect(fake.openSpares('printer-1')).toBe(1);
    // A spare closed before `start` makes no document.
    expect(fake.documents).toHaveLength(0);
  });

  it('a printer port held by a spare as its local port is freed for the bind', async () => {
    // Printer ports in the ephemeral range can collide with a long-lived spare's local port.
    const held = fake.spareUpgrades.find((u) => u.printerId === 'printer-1')!.bridgePort;
    expect(held).toBeGreaterThan(0);
    ports[2] = held;
    fake.setListeners([listener(0), listener(1), listener(2)]);
    await fake.waitFor(() => fake.messages('bound').find((m) => m.printerId === 'printer-2'), 5000, 'bound printer-2');
    expect(fake.messages('bound').find((m) => m.printerId === 'printer-2')).toMatchObject({ ok: true, port: held });
    expect(events('spare.port_released')).toEqual([expect.objectContaining({ printerId: 'printer-1', port: held })]);
    await printAndClose(held, 'on a port a spare held\n');
    const [doc] = await fake.waitForDocuments(1);
    expect(doc).toMatchObject({ printerId: 'printer-2' });
    // The reset spare is replaced (on another port), and no document came of it.
    await fake.waitFor(() => upgrades(1) === 2, 5000, 'spare of printer-1 reopened');
    await spareOpen(1);
    expect(fake.documents).toHaveLength(1);
  });

  it('shutdown closes every spare', async () => {
    expect(fake.openSpares()).toBe(2);
    await bridge.stop();
    await fake.waitFor(() => fake.openSpares() === 0, 5000, 'spares closed');
    await sleep(400);
    expect(fake.openSpares()).toBe(0);
    expect(fake.spareUpgrades).toHaveLength(2);
    expect(fake.documents).toHaveLength(0);
  });
});

describe('spare pool limits', () => {
  it('holds at most maxSpares; a dormant printer gets one when there is room; unused spares close after idleMs', async () => {
    const pool = new SparePool({ workerUrl: fake.url, secret: fake.secret, log, maxSpares: 2, idleMs: 400 });
    try {
      for (const id of ['a', 'b', 'c']) pool.ensure(id);
      await fake.waitFor(() => fake.openSpares('a') === 1 && fake.openSpares('b') === 1 && pool.openCount === 2, 5000, 'two spares');
      expect(pool.stateOf('c')).toBe('dormant');
      expect(events('spares.at_capacity')).toEqual([expect.objectContaining({ maxSpares: 2 })]);
      // A connection to the dormant printer gets none now (the pool is full) ...
      expect(pool.take('c')).toBeNull();
      // ... and its spare once a place frees up.
      pool.remove('a');
      await fake.waitFor(() => pool.stateOf('c') === 'open' && fake.openSpares('c') === 1, 5000, 'spare of c');
      await fake.waitFor(() => fake.openSpares('a') === 0, 5000, 'spare of a closed');
      // A lent spare holds b's place; given back open it is b's spare again, given back lost
      // it is replaced within the limit.
      const ws = pool.take('b');
      expect(ws).not.toBeNull();
      expect(pool.stateOf('b')).toBe('lent');
      pool.giveBack('b', ws, true);
      expect(pool.stateOf('b')).toBe('open');
      const again = pool.take('b');
      expect(again).toBe(ws);
      again!.close();
      pool.giveBack('b', null, true);
      await fake.waitFor(() => pool.stateOf('b') === 'open' && fake.openSpares('b') === 1, 5000, 'b replaced');
      expect(pool.openCount).toBe(2);
      // Nobody connects: both go dormant after idleMs, and the Worker sees them close.
      await fake.waitFor(() => pool.openCount === 0 && fake.openSpares('b') + fake.openSpares('c') === 0, 5000, 'idle spares closed');
      expect(pool.stateOf('b')).toBe('dormant');
      // The next connection falls back and asks for a spare again.
      expect(pool.take('b')).toBeNull();
      await fake.waitFor(() => pool.stateOf('b') === 'open', 5000, 'b re-armed');
    } finally {
      pool.closeAll();
    }
    await fake.waitFor(() => ['a', 'b', 'c'].every((id) => fake.openSpares(id) === 0), 5000, 'closed');
    expect(fake.documents).toHaveLength(0);
  });
});
