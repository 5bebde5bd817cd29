/**
 * The Worker ↔ bridge messages (src/shared/bridge-protocol.ts), fuzzed at all four parsers
 * (control and session, each direction; the Worker reads the bridge's with
 * src/worker/services/bridge-input.ts): every valid message the sender writes is read as the
 * receiver's view of it; any other frame is refused with a reason and never throws; a message
 * with one field of the wrong type is refused naming that field. Then the bridge's own end:
 * junk on the control channel is logged with its reason and the next valid `listeners` applies.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  encodeMessage, END_REASONS, LISTENER_DEFAULTS, parseWorkerControl, parseWorkerSession,
  type BridgeControlMessage, type BridgeSessionMessage, type ListenerSpec, type Parsed, type ProtocolMessage, type WorkerControlMessage, type WorkerSessionMessage,
} from '../../src/shared/bridge-protocol.ts';
import { parseControlMessage, parseSessionControl } from '../../src/worker/services/bridge-input.ts';
import { normalizeClientAddress } from '../../src/shared/whitelist.ts';
import { startBridge, type RunningBridge } from '../../tcp-bridge/bridge.ts';
import { FakeWorker, listenerSpec } from './support/fake-worker.ts';
import { capturedLog } from './support/log.ts';
import { freePorts } from './support/tcp.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 500);
const id = fc.uuid();
const port = fc.integer({ min: 1, max: 65535 });
const count = fc.nat({ max: 2 ** 40 });
const positive = fc.integer({ min: 1, max: 2 ** 30 });

const listener: fc.Arbitrary<ListenerSpec> = fc.record({
  printerId: id, workspaceId: id, port, protocol: fc.constantFrom('EscPos', 'StarPrnt', 'StarLine', 'Epl', 'Zpl'), displayName: fc.string({ maxLength: 40 }),
  whitelist: fc.record({ enabled: fc.boolean(), entries: fc.array(fc.constantFrom('10.0.0.0/8', '::1', '192.168.1.7'), { maxLength: 3 }) }),
  buffer: fc.option(fc.record({ maxCapacity: positive, drainRate: fc.double({ min: 0.5, max: 1e9, noNaN: true }) }), { nil: null }),
  idleTimeoutMs: positive, maxJobBytes: positive, maxConnections: positive, maxJobsInFlight: positive, maxJobSeconds: positive,
});

const workerControl: fc.Arbitrary<WorkerControlMessage> = fc.oneof(
  fc.record({ type: fc.constant('listeners' as const), listeners: fc.array(listener, { maxLength: 4 }) }),
  fc.constant({ type: 'pong' as const }),
);
const bridgeControl: fc.Arbitrary<BridgeControlMessage> = fc.oneof(
  fc.constant({ type: 'ping' as const }),
  fc.record({ type: fc.constant('bound' as const), printerId: id, port, ok: fc.constant(true as const) }),
  fc.record({ type: fc.constant('bound' as const), printerId: id, port, ok: fc.constant(false as const), error: fc.string() }),
  fc.record({ type: fc.constant('unbound' as const), printerId: id, port }),
  fc.record({ type: fc.constant('connection' as const), printerId: id, clientIp: fc.ipV4(), allowed: fc.boolean(), at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) }),
);
const bridgeSession: fc.Arbitrary<BridgeSessionMessage> = fc.oneof(
  fc.record({ type: fc.constant('start' as const), sessionId: id, clientAddress: fc.oneof(fc.ipV4(), fc.ipV6()) }),
  fc.record({ type: fc.constant('start' as const), sessionId: id, clientAddress: fc.ipV4(), transport: fc.constant('Tcp' as const) }),
  fc.record({ type: fc.constant('buffer' as const), bufferedBytes: count, bufferedBytesDeltaBps: fc.integer({ min: -1e9, max: 1e9 }) }),
  fc.record({ type: fc.constant('end' as const), reason: fc.constantFrom(...END_REASONS), bytesSent: count }),
);
const workerSession: fc.Arbitrary<WorkerSessionMessage> = fc.oneof(
  fc.constant({ type: 'finalising' as const }),
  fc.record({ type: fc.constant('finalised' as const), documentId: fc.option(id, { nil: null }) }),
);

type Parser = (text: string) => Parsed<unknown>;
/** The Worker's parsers answer `{ ok, value }`; here every parser answers `{ ok, message }`. */
const workerSide = (parse: (text: string) => { ok: true; value: unknown } | { ok: false; reason: string }): Parser => (text) => {
  const r = parse(text);
  return r.ok ? { ok: true, message: r.value } : r;
};
/**
 * The receiver's view of a valid message: the Worker keeps its own clock (no `at`), needs no
 * port to forget a listener, and reads client addresses normalised.
 */
const workerView = (m: ProtocolMessage): unknown => {
  switch (m.type) {
    case 'unbound': return { type: m.type, printerId: m.printerId };
    case 'connection': return { type: m.type, printerId: m.printerId, clientIp: normalizeClientAddress(m.clientIp), allowed: m.allowed };
    case 'bound': return m.ok ? { ...m, error: undefined } : m;
    case 'start': return { ...m, clientAddress: normalizeClientAddress(m.clientAddress) };
    default: return m;
  }
};
/**
 * `lenient`: fields (or `type.field`) a receiver reads leniently rather than refusing.
 * `types`: what the receiver may answer. `rereads`: what it accepts, written again, reads the
 * same (the Worker fills a spare's missing session id and address with values of its own).
 */
const ends: { name: string; parse: Parser; valid: fc.Arbitrary<ProtocolMessage>; view: (m: ProtocolMessage) => unknown; lenient: string[]; types: string[]; rereads: boolean }[] = [
  { name: 'control, Worker to bridge (bridge reads)', parse: (t) => parseWorkerControl(t), valid: workerControl, view: (m) => m, lenient: [], types: ['listeners', 'pong'], rereads: true },
  // `ok` anything but true is a failed bind; `error` is free text; `at` and an unbound's port are not read.
  { name: 'control, bridge to Worker (Worker reads)', parse: workerSide(parseControlMessage), valid: bridgeControl, view: workerView, lenient: ['ok', 'error', 'at', 'unbound.port'], types: ['ping', 'bound', 'unbound', 'connection'], rereads: true },
  // An unknown end reason is `closed`, an unreadable bytesSent keeps the Worker's own count.
  { name: 'session, bridge to Worker (Worker reads)', parse: workerSide(parseSessionControl), valid: bridgeSession, view: workerView, lenient: ['reason', 'bytesSent'], types: ['start', 'buffer', 'end'], rereads: false },
  { name: 'session, Worker to bridge (bridge reads)', parse: parseWorkerSession, valid: workerSession, view: (m) => m, lenient: [], types: ['finalising', 'finalised'], rereads: true },
];

/** Any frame a peer or the network could deliver: text, JSON of any shape, known types with random fields. */
const junk = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record({
    type: fc.constantFrom('listeners', 'pong', 'ping', 'bound', 'unbound', 'connection', 'start', 'buffer', 'end', 'finalising', 'finalised', 'other'),
  }, { requiredKeys: [] }).chain((base) => fc.dictionary(fc.constantFrom('printerId', 'port', 'ok', 'error', 'clientIp', 'allowed', 'at', 'sessionId', 'clientAddress', 'transport', 'bufferedBytes', 'bufferedBytesDeltaBps', 'reason', 'bytesSent', 'documentId', 'listeners'), fc.jsonValue({ maxDepth: 2 }))
    .map((fields) => JSON.stringify({ ...fields, ...base }))),
);

describe('bridge protocol parsers', () => {
  for (const end of ends) {
    describe(end.name, () => {
      it('reads every valid message as the receiver\u2019s view of it', () => {
        fc.assert(fc.property(end.valid, (m) => {
          expect(end.parse(encodeMessage(m))).toEqual({ ok: true, message: end.view(m) });
        }), { numRuns: runs });
      });

      it('never throws on any frame; what it accepts is a message of its union', () => {
        fc.assert(fc.property(junk, (text) => {
          const parsed = end.parse(text);
          if (!parsed.ok) return void expect(parsed.reason).toMatch(/\S/);
          expect(end.types).toContain((parsed.message as ProtocolMessage).type);
          if (end.rereads) expect(end.parse(encodeMessage(parsed.message as ProtocolMessage))).toEqual(parsed);
        }), { numRuns: runs * 4 });
      });

      it('refuses a message with a field of the wrong type, naming the field', () => {
        const wrong = fc.constantFrom<unknown>({}, [], 'x', -1, 1.5, true, null);
        fc.assert(fc.property(end.valid, wrong, fc.nat(), (m, bad, pick) => {
          const keys = Object.keys(m).filter((k) => k !== 'type' && !end.lenient.includes(k) && !end.lenient.includes(`${m.type}.${k}`));
          fc.pre(keys.length > 0);
          const key = keys[pick % keys.length];
          const corrupted = { ...m, [key]: bad };
          const parsed = end.parse(JSON.stringify(corrupted));
          // A value that happens to fit the field (e.g. true for `ok`) is not a corruption.
          if (parsed.ok) expect(JSON.parse(encodeMessage(parsed.message as ProtocolMessage))[key]).toEqual(bad);
          else expect(parsed.reason).toContain(key);
        }), { numRuns: runs });
      });

      it('refuses an unknown type', () => {
        const parsed = end.parse(JSON.stringify({ type: 'nonsense' }));
        expect(parsed).toEqual({ ok: false, reason: expect.stringMatching(/unknown type/) });
      });
    });
  }

  it('fills a listener\u2019s missing limits with the one set of defaults', () => {
    const parsed = parseWorkerControl(JSON.stringify({ type: 'listeners', listeners: [{ printerId: 'p', port: 9101 }] }));
    expect(parsed).toMatchObject({ ok: true, message: { listeners: [{ ...LISTENER_DEFAULTS, printerId: 'p', port: 9101, buffer: null }] } });
  });
});

describe('the bridge\u2019s end of the control channel', () => {
  let fake: FakeWorker | null = null;
  let bridge: RunningBridge | null = null;
  afterEach(async () => {
    await bridge?.stop();
    await fake?.stop();
  });

  it('logs why it refused a frame and keeps applying the next listeners set', async () => {
    const { log, events } = capturedLog();
    fake = new FakeWorker();
    await fake.start();
    const [p0] = await freePorts(1);
    fake.listeners = [];
    bridge = startBridge({ workerUrl: fake.url, secret: fake.secret, bindHost: '127.0.0.1', logLevel: 'info', stateDir: '', maxJobsTotal: 8 }, log);
    await fake.waitFor(() => fake!.controlConnected === 1, 5000, 'control channel');
    fake.sendControlText('not json');
    fake.sendControlText(JSON.stringify({ type: 'listeners', listeners: 'all of them' }));
    fake.sendControlText(JSON.stringify({ type: 'reboot' }));
    fake.setListeners([listenerSpec(0, p0)]);
    await fake.waitFor(() => fake!.messages('bound').find((m) => m.printerId === 'printer-0' && m.ok === true), 5000, 'bound');
    expect(events('control.bad_message').map((e) => e.reason)).toEqual([
      'control from Worker: not JSON',
      'control from Worker "listeners": listeners must be an array',
      'control from Worker "reboot": unknown type',
    ]);
  });
});
