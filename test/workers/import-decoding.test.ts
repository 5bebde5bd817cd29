/**
 * Import payloads keep at most `keepBytes` decoded bytes (the route asks for one more than the
 * maximum job size), while the whole payload is still checked: an invalid character past the
 * kept part is refused as before.
 */
import { describe, expect, it } from 'vitest';
import { decodeImportPayload, ImportDecoder, releaseNow } from '../../src/worker/services/import-decoding.ts';

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

describe('import decoding with keepBytes', () => {
  const bytes = Array.from({ length: 40 }, (_, i) => i * 5);
  for (const format of ['Hex', 'Base64', undefined] as const) {
    // Detected: hex bytes spaced apart (run together, these are valid base64 too and refused).
    const data = format === 'Base64' ? btoa(String.fromCharCode(...bytes)) : format === 'Hex' ? hex(bytes) : bytes.map((b) => hex([b])).join(' ');
    it(`${format ?? 'detected'}: the first bytes kept, the rest dropped`, async () => {
      const r = await decodeImportPayload(data, format, undefined, 17);
      expect(r).toEqual({ ok: true, bytes: new Uint8Array(bytes.slice(0, 17)), format: format ?? 'Hex' });
      const whole = await decodeImportPayload(data, format);
      expect(whole.ok && Array.from(whole.bytes)).toEqual(bytes);
    });
  }

  it('a bad hex digit past the kept bytes is still refused', async () => {
    const r = await decodeImportPayload(hex(bytes) + 'zz', 'Hex', undefined, 4);
    expect(r.ok).toBe(false);
  });
});

describe('import decoding as the payload streams in', () => {
  const bytes = Array.from({ length: 41 }, (_, i) => (i * 37) & 0xff);
  const payloads: [string, ('Hex' | 'Base64')?][] = [
    [btoa(String.fromCharCode(...bytes)), 'Base64'],
    [btoa(String.fromCharCode(...bytes.slice(1))), undefined],
    [' ' + btoa(String.fromCharCode(...bytes.slice(2))).replace(/(.{5})/g, '$1\n') + '\t', 'Base64'],
    [bytes.map((b) => hex([b])).join(' '), undefined],
    [hex(bytes), 'Hex'],
    [hex(bytes), undefined],
    ['AB==CD==', 'Base64'],
    ['ABC', 'Base64'],
    ['1B 4', undefined],
  ];
  for (const [data, format] of payloads) {
    it(`${JSON.stringify(data.slice(0, 20))} (${format ?? 'detected'}): the same in pieces of any size as whole`, async () => {
      const whole = await decodeImportPayload(data, format);
      for (const piece of [1, 2, 3, 7]) {
        const decoder = new ImportDecoder();
        const ascii = new TextEncoder().encode(data);
        for (let at = 0; at < ascii.length; at += piece) decoder.ascii(ascii, at, Math.min(ascii.length, at + piece));
        expect(decoder.finish(format)).toEqual(whole);
      }
    });
  }

  it('the bytes are what atob and hex reading give', async () => {
    expect(await decodeImportPayload(btoa(String.fromCharCode(...bytes)), 'Base64')).toEqual({ ok: true, bytes: new Uint8Array(bytes), format: 'Base64' });
    expect(await decodeImportPayload(btoa(String.fromCharCode(...bytes.slice(1))))).toEqual({ ok: true, bytes: new Uint8Array(bytes.slice(1)), format: 'Base64' });
    expect(await decodeImportPayload(hex(bytes), 'Hex')).toEqual({ ok: true, bytes: new Uint8Array(bytes), format: 'Hex' });
  });
});

describe('releaseNow', () => {
  it('detaches the buffer (its memory is freed at once, not at the next collection)', () => {
    const bytes = new Uint8Array(1 << 20).subarray(10, 20);
    releaseNow(bytes);
    expect(bytes.buffer.byteLength).toBe(0);
    expect(bytes.length).toBe(0);
  });
});
