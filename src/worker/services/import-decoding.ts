/**
 * Decoding of import payloads (contract "Import rules"):
 * 1. whitespace is ignored in both forms;
 * 2. a given `format` decides;
 * 3. without one, bytes spaced apart are hex; a payload valid as only one form is read as
 *    that form; a run-together payload valid as both is refused (the readings differ).
 */
export type ImportFormat = 'Hex' | 'Base64';
export type DecodeResult = { ok: true; bytes: Uint8Array; format: ImportFormat } | { ok: false; error: string };

const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeHex(compact: string): Uint8Array | null {
  if (compact.length % 2 !== 0 || !HEX.test(compact)) return null;
  const out = new Uint8Array(compact.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(compact.substr(i * 2, 2), 16);
  return out;
}

function decodeBase64(compact: string): Uint8Array | null {
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  try {
    const bin = atob(compact);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

export function decodeImportPayload(data: string, format?: ImportFormat): DecodeResult {
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0) return { ok: false, error: 'The import payload is empty' };
  if (format === 'Hex') {
    const bytes = decodeHex(compact);
    return bytes ? { ok: true, bytes, format } : { ok: false, error: 'The payload is not valid hex (pairs of 0-9, A-F; whitespace allowed)' };
  }
  if (format === 'Base64') {
    const bytes = decodeBase64(compact);
    return bytes ? { ok: true, bytes, format } : { ok: false, error: 'The payload is not valid base64' };
  }
  const tokens = data.trim().split(/\s+/);
  const hex = decodeHex(compact);
  if (tokens.length > 1 && hex && tokens.every((t) => t.length % 2 === 0 && HEX.test(t))) {
    return { ok: true, bytes: hex, format: 'Hex' };
  }
  const b64 = decodeBase64(compact);
  if (hex && b64) {
    return {
      ok: false,
      error: 'The payload is valid as both hex and base64 and the two readings differ; set "format" to "Hex" or "Base64", or space the hex bytes apart',
    };
  }
  if (hex) return { ok: true, bytes: hex, format: 'Hex' };
  if (b64) return { ok: true, bytes: b64, format: 'Base64' };
  return { ok: false, error: 'The payload is neither valid hex nor valid base64' };
}
