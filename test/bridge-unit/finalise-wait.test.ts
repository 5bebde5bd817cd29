/**
 * After `end` the bridge waits for `finalised`; a printer object that is slow because it works
 * through other jobs first says so with `finalising` heartbeats, and the bridge keeps waiting
 * instead of declaring the upstream lost and sending the job to be rendered again.
 * The quiet period is shortened to 1 s here (60 s in service).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, type RunningBridge } from '../../tcp-bridge/bridge.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { freePorts, printAndClose } from './support/tcp.ts';

const QUIET_MS = 1_000;
const { lines, log } = capturedLog();

let fake: FakeWorker;
let bridge: RunningBridge;
let port: number;

beforeEach(async () => {
  lines.length = 0;
  fake = new FakeWorker();
  await fake.start();
  [port] = await freePorts(1);
  fake.listeners = [listenerSpec(0, port)];
  bridge = startBridge({ workerUrl: fake.url, secret: fake.secret, bindHost: '0.0.0.0', logLevel: 'info', stateDir: '', maxJobsTotal: 16 }, log, { finaliseQuietMs: QUIET_MS });
  await fake.waitFor(() => fake.messages('bound').find((m) => m.printerId === 'printer-0' && m.ok === true), 5000, 'bound');
});

afterEach(async () => {
  await bridge.stop();
  await fake.stop();
});

const connectionLine = () => lines.map((l) => JSON.parse(l)).find((l) => l.event === 'connection' && l.printerId === 'printer-0');

describe('finalise wait', () => {
  it('keeps waiting past the quiet period while the object sends finalising heartbeats', async () => {
    fake.finaliseDelayMs = QUIET_MS * 3;
    fake.finalisingEveryMs = QUIET_MS / 4;
    await printAndClose(port, Buffer.from('slow to finalise\n'));
    await fake.waitFor(() => connectionLine(), 10_000, 'connection logged');
    expect(connectionLine()).toMatchObject({ outcome: 'closed' });
    expect(connectionLine().documentId).toBe(fake.documents[0].documentId);
    expect(fake.documents.map((d) => d.via)).toEqual(['session']);
    expect(lines.some((l) => l.includes('recovery.queued'))).toBe(false);
  });

  it('gives the job to recovery after the quiet period without a sign of the object', async () => {
    fake.finaliseDelayMs = QUIET_MS * 3;
    fake.finalisingEveryMs = null;
    await printAndClose(port, Buffer.from('no heartbeat\n'));
    await fake.waitFor(() => connectionLine(), 10_000, 'connection logged');
    expect(connectionLine()).toMatchObject({ outcome: 'upstream-lost' });
    await fake.waitFor(() => lines.some((l) => l.includes('recovery.queued')), 5_000, 'recovery queued');
  });
});
