/**
 * The engine contract: what every protocol engine of the registry must do, run against each
 * engine the way Hono runs one suite against every router. An engine's test file calls
 * `runEngineContract(protocol, samples)` with real jobs of its language.
 *
 * - never throws, whatever the bytes (fuzzed, and samples cut and spliced);
 * - every byte accounted: the debug elements' lengths sum to bytesReceived == bytes pushed;
 * - the same document whatever the chunking (byte by byte, random splits, all at once);
 * - every image element carries a valid PNG of its stated size;
 * - a status query is answered at once, in the middle of a job;
 * - a job of status queries alone is a status poll, a sample that prints is not.
 */
import fc from 'fast-check';
import { decode } from 'fast-png';
import { describe, expect, it as vitestIt } from 'vitest';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { createProtocolSession, newPrinterMemory, type PrinterMemory } from '../../../src/engines/index.ts';
import { PROTOCOLS, type Protocol } from '../../../src/engines/protocols.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

export interface ContractSamples {
  /**
   * Real jobs that print something (receipts, labels). `queryAt`: where a status query may be
   * sent mid-job (a command boundary); default: after the last LF before the middle.
   */
  jobs: { name: string; bytes: Uint8Array; queryAt?: number }[];
  /** A status query of the language and a check of its reply. */
  statusQuery: { bytes: Uint8Array; isReply(reply: Uint8Array): boolean };
  /** A context for the protocol's printer (paper width...). Default: a test printer of the protocol's default paper. */
  context?: () => PrinterContext;
  /**
   * What the engine does not emulate, said plainly (as Hono's router suite does): each entry
   * names contract tests by their title and why they do not apply. A skipped test shows as
   * skipped with its reason; a skip naming no test of the contract fails the suite.
   */
  skip?: { reason: string; tests: ContractTest[] }[];
}

/** The contract's tests, by title. */
export const CONTRACT_TESTS = [
  'has samples that print',
  'never throws and accounts for every byte of random input',
  'never throws on samples cut, spliced and corrupted',
  'makes the same document whatever the chunking',
  'answers a status query in the middle of a job, at once',
  'marks a job of status queries alone as a status poll',
] as const;
export type ContractTest = (typeof CONTRACT_TESTS)[number];

const RUNS = Number(process.env.CONTRACT_RUNS ?? 300);

function defaultContext(protocol: Protocol): PrinterContext {
  const p = PROTOCOLS[protocol];
  return testPrinterContext({ widthInDots: p.defaultWidthInDots, heightInDots: p.defaultHeightInDots });
}

function freshMemory(): PrinterMemory {
  return newPrinterMemory();
}

/** Push `data` in pieces ending at `cuts`; the job and every reply. */
function render(protocol: Protocol, ctx: PrinterContext, data: Uint8Array, cuts: number[] = []): { job: RenderedJob; replies: Uint8Array[] } {
  const s = createProtocolSession(protocol, () => ctx, freshMemory());
  const replies: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...new Set(cuts.map((x) => x % (data.length + 1)))].sort((a, b) => a - b)) {
    replies.push(...s.push(data.subarray(prev, c)).replies);
    prev = c;
  }
  replies.push(...s.push(data.subarray(prev)).replies);
  return { job: s.finish(), replies };
}

function checkInvariants(job: RenderedJob, length: number): void {
  expect(job.bytesReceived).toBe(length);
  let sum = 0;
  for (const c of job.canvases) {
    for (const el of c.items) {
      if (el.type === 'debug') sum += el.lengthInBytes;
      if (el.type === 'image') {
        const png = decode(el.image.png);
        expect(png.width).toBe(Math.max(1, el.image.widthInDots));
        expect(png.height).toBe(Math.max(1, el.image.heightInDots));
      }
    }
  }
  expect(sum).toBe(length);
  expect(typeof job.isStatusPoll).toBe('boolean');
}

/** Canvases and messages without the PNG bytes' identity (compared by content). */
function snapshot(job: RenderedJob): string {
  return JSON.stringify({ canvases: job.canvases, errors: job.errorMessages, bytes: job.bytesReceived, poll: job.isStatusPoll }, (_k, v) =>
    v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function runEngineContract(protocol: Protocol, samples: ContractSamples): void {
  const ctx = (): PrinterContext => samples.context?.() ?? defaultContext(protocol);
  const skipped = new Map<string, string>();
  for (const { reason, tests } of samples.skip ?? []) {
    if (!reason.trim()) throw new Error(`engine contract ${protocol}: a skip must say why`);
    for (const t of tests) {
      if (!(CONTRACT_TESTS as readonly string[]).includes(t)) throw new Error(`engine contract ${protocol}: no contract test "${t}" to skip`);
      skipped.set(t, reason);
    }
  }
  /** A contract test, or its skip with the reason in the title. */
  const it = (title: ContractTest, fn: () => void) => {
    const reason = skipped.get(title);
    if (reason) vitestIt.skip(`${title} (not emulated: ${reason})`, fn);
    else vitestIt(title, fn);
  };

  describe(`engine contract: ${protocol}`, () => {
    it('has samples that print', () => {
      expect(samples.jobs.length).toBeGreaterThan(0);
      for (const { name, bytes } of samples.jobs) {
        const { job } = render(protocol, ctx(), bytes);
        checkInvariants(job, bytes.length);
        expect(job.isStatusPoll, name).toBe(false);
        expect(job.canvases.flatMap((c) => c.items).some((e) => e.type !== 'debug'), name).toBe(true);
      }
    });

    it('never throws and accounts for every byte of random input', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 600 }), fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
          const { job } = render(protocol, ctx(), data, cuts);
          checkInvariants(job, data.length);
        }),
        { numRuns: RUNS, seed: 13 },
      );
    });

    it('never throws on samples cut, spliced and corrupted', () => {
      const all = samples.jobs.map((j) => j.bytes);
      fc.assert(
        fc.property(fc.nat({ max: all.length - 1 }), fc.nat(), fc.nat(), fc.uint8Array({ maxLength: 8 }), (i, a, b, noise) => {
          const src = all[i];
          const from = a % (src.length + 1), to = from + (b % (src.length - from + 1));
          const data = concat(src.subarray(0, from), noise, src.subarray(to), src.subarray(0, from));
          const { job } = render(protocol, ctx(), data, [from, to]);
          checkInvariants(job, data.length);
        }),
        { numRuns: RUNS, seed: 14 },
      );
    });

    it('makes the same document whatever the chunking', () => {
      for (const { name, bytes } of samples.jobs) {
        const whole = snapshot(render(protocol, ctx(), bytes).job);
        const byteByByte = snapshot(render(protocol, ctx(), bytes, Array.from({ length: bytes.length }, (_, i) => i)).job);
        expect(byteByByte, name).toBe(whole);
        fc.assert(
          fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => snapshot(render(protocol, ctx(), bytes, cuts).job) === whole),
          { numRuns: 30, seed: 15 },
        );
      }
    });

    it('answers a status query in the middle of a job, at once', () => {
      for (const { name, bytes, queryAt } of samples.jobs) {
        const c = ctx();
        const s = createProtocolSession(protocol, () => c, freshMemory());
        const cut = queryAt ?? Math.max(0, bytes.lastIndexOf(0x0a, Math.floor(bytes.length / 2)) + 1);
        s.push(bytes.subarray(0, cut));
        const replies = s.push(samples.statusQuery.bytes).replies;
        expect(replies.some((r) => samples.statusQuery.isReply(r)), name).toBe(true);
        s.push(bytes.subarray(cut));
        const job = s.finish();
        checkInvariants(job, bytes.length + samples.statusQuery.bytes.length);
      }
    });

    it('marks a job of status queries alone as a status poll', () => {
      const q = samples.statusQuery.bytes;
      const { job, replies } = render(protocol, ctx(), concat(q, q, q));
      expect(replies.filter((r) => samples.statusQuery.isReply(r)).length).toBeGreaterThan(0);
      expect(job.errorMessages).toEqual([]);
      expect(job.isStatusPoll).toBe(true);
    });
  });
}
