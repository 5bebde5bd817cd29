import { describe, expect, it } from 'vitest';
import type { DrawerState, OperationalFlags } from '../../../src/engines/canvas/printer-context.ts';
import { asbHeader1, starAsb, starEnq, starEot, starVersionReply, type StarStatusInput } from '../../../src/engines/star/status.ts';

/**
 * Star's status bytes read back with the bit tables of Star's command specifications
 * (appendix "Status Specifications"), the way a StarIO-based driver reads them.
 */
function readAsb(b: Uint8Array) {
  const size = ((b[0] & 0x0e) >> 1) | ((b[0] & 0x20) >> 2);
  const bit = (i: number, n: number) => (b[i] & (1 << n)) !== 0;
  return {
    size,
    version: ((b[1] & 0x0e) >> 1) | ((b[1] & 0x20) >> 2),
    coverOpen: bit(2, 5),
    offline: bit(2, 3),
    compulsionSwitch: bit(2, 2),
    etbExecuted: bit(2, 1),
    nonRecoverableError: bit(3, 5),
    paperEnd: bit(5, 3),
    paperNearEndInner: bit(5, 2),
    etbCounter: ((b[7] & 0x0e) >> 1) | ((b[7] & 0x60) >> 2),
  };
}

function input(flags: Partial<OperationalFlags>, drawer1State: DrawerState = 'Closed', extra: Partial<StarStatusInput> = {}): StarStatusInput {
  return {
    flags: { isCoverOpen: false, isPaperOut: false, isOffline: false, hasError: false, isPaperNearEnd: false, ...flags },
    drawer1State,
    bufferFull: false,
    etbCounter: 0,
    etbExecuted: false,
    ...extra,
  };
}

const FLAG_NAMES = ['isCoverOpen', 'isPaperOut', 'isOffline', 'hasError', 'isPaperNearEnd'] as const;

describe('Star status replies', () => {
  it('header 1 packs the byte count as the manual tabulates it', () => {
    // Table "Transmitted byte count n / Header 1" of Star's ASB specification.
    expect([7, 8, 9, 10, 11, 12, 13, 14, 15].map(asbHeader1)).toEqual([0x0f, 0x21, 0x23, 0x25, 0x27, 0x29, 0x2b, 0x2d, 0x2f]);
  });

  it('an idle printer with a closed drawer answers 23 06 00 00 00 00 00 00 00', () => {
    expect([...starAsb(input({}))]).toEqual([0x23, 0x06, 0, 0, 0, 0, 0, 0, 0]);
    expect(starEnq(input({}))).toBe(0x20); // reception buffer empty
    expect(starEot(input({}))).toBe(0x10); // bit 4 fixed at 1
  });

  for (let mask = 0; mask < 32; mask++) {
    for (const drawer of ['Closed', 'OpenedManually', 'OpenedByCommand'] as const) {
      const flags = Object.fromEntries(FLAG_NAMES.map((n, i) => [n, (mask & (1 << i)) !== 0])) as unknown as OperationalFlags;
      const on = FLAG_NAMES.filter((n) => flags[n]).join('+') || 'none';
      it(`flags ${on}, drawer ${drawer}: ASB, ENQ and EOT carry them`, () => {
        const s = input(flags, drawer);
        const asb = starAsb(s);
        const r = readAsb(asb);
        expect(asb.length).toBe(r.size);
        expect(r.version).toBe(3);
        expect(r.coverOpen).toBe(flags.isCoverOpen);
        expect(r.offline).toBe(flags.isOffline || flags.isCoverOpen || flags.isPaperOut || flags.hasError);
        expect(r.compulsionSwitch).toBe(drawer !== 'Closed');
        expect(r.nonRecoverableError).toBe(flags.hasError);
        expect(r.paperEnd).toBe(flags.isPaperOut);
        expect(r.paperNearEndInner).toBe(flags.isPaperNearEnd);
        // Status identification (manual, "How to identify statuses"): header 1 is 0**0***1,
        // every other ASB byte 0**0***0.
        expect(asb[0] & 0x91).toBe(0x01);
        for (let i = 1; i < asb.length; i++) expect(asb[i] & 0x91).toBe(0);

        const enq = starEnq(s);
        expect(enq & 0x10).toBe(0); // ENQ: bit 4 fixed at 0
        expect((enq & 0x80) !== 0).toBe(drawer !== 'Closed');
        expect((enq & 0x08) !== 0).toBe(flags.isPaperOut);
        expect((enq & 0x04) !== 0).toBe(flags.hasError || flags.isCoverOpen);

        const eot = starEot(s);
        expect(eot & 0x11).toBe(0x10); // EOT: bit 4 fixed 1, bit 0 fixed 0
        expect((eot & 0x08) !== 0).toBe(flags.isPaperOut);
        expect((eot & 0x04) !== 0).toBe(flags.isPaperNearEnd);
      });
    }
  }

  it('a full receive buffer reads offline with a non-empty buffer', () => {
    const s = input({}, 'Closed', { bufferFull: true });
    expect(readAsb(starAsb(s)).offline).toBe(true);
    expect(starEnq(s) & 0x20).toBe(0);
  });

  it('the ETB counter and the ETB-executed bit', () => {
    for (const n of [0, 1, 7, 8, 17, 31]) {
      const r = readAsb(starAsb(input({}, 'Closed', { etbCounter: n, etbExecuted: n > 0 })));
      expect(r.etbCounter).toBe(n);
      expect(r.etbExecuted).toBe(n > 0);
    }
  });

  it('ESC # * answers with the model and version, framed as the manual shows', () => {
    const reply = starVersionReply('TSP100IV', 'Ver1.0');
    expect(new TextDecoder().decode(reply)).toBe('\x1b#*,TSP100IV Ver1.0\n\0');
  });
});
