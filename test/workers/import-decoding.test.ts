/**
 * Import payloads keep at most `keepBytes` decoded bytes (the route asks for one more than the
 * maximum job size), while the whole payload is still checked: an invalid character past the
 * kept part is refused as before.
 */
import { describe, expect, it } from 'vitest';
import { decodeImportPayload } from '../../src/worker/services/import-decoding.ts';

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
