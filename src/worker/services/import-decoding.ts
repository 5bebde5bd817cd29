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

/** Nibble value of each char code (-1: not a hex digit); a table, not parseInt: a 48 MiB import decodes in tens of ms, not a second. */
const NIBBLE = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/**
 * Characters handled between two pauses: a 48 MiB payload is some hundred steps of a few ms,
 * not one long one (whitespace scan, hex and base64 decoding alike).
 */
const STEP_CHARS = 1 << 19;

/** Lets other requests and printers run (the Worker's thread is shared); a no-op by default. */
export type Pause = () => Promise<void>;
const noPause: Pause = async () => {};

/** Validates every pair; keeps the first `keep` bytes. */
async function decodeHex(compact: string, pause: Pause, keep: number): Promise<Uint8Array | null> {
  if (compact.length % 2 !== 0) return null;
  const n = compact.length / 2;
  const out = new Uint8Array(Math.min(n, keep));
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    if (j % STEP_CHARS === 0 && i > 0) await pause();
    const a = compact.charCodeAt(j), b = compact.charCodeAt(j + 1);
    const hi = a < 128 ? NIBBLE[a] : -1, lo = b < 128 ? NIBBLE[b] : -1;
    if (hi < 0 || lo < 0) return null;
    if (i < out.length) out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Validates the whole payload, a step at a time; keeps the first `keep` bytes. */
async function decodeBase64(compact: string, pause: Pause, keep: number): Promise<Uint8Array | null> {
  if (compact.length % 4 !== 0) return null;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const out = new Uint8Array(Math.min((compact.length / 4) * 3 - padding, keep));
  // Whole groups of four characters a step: each decodes on its own.
  for (let at = 0, o = 0; at < compact.length; at += STEP_CHARS) {
    if (at > 0) await pause();
    const part = compact.slice(at, at + STEP_CHARS);
    // Padding only at the very end.
    if (!BASE64.test(part) || (at + STEP_CHARS < compact.length && part.endsWith('='))) return null;
    let bin: string;
    try {
      bin = atob(part);
    } catch {
      return null;
    }
    for (let i = 0; i < bin.length && o < out.length; i++) out[o++] = bin.charCodeAt(i);
  }
  return out;
}

/** Whether `data` holds whitespace, looked at a step at a time. */
async function hasWhitespace(data: string, pause: Pause): Promise<boolean> {
  for (let at = 0; at < data.length; at += STEP_CHARS) {
    if (at > 0) await pause();
    if (/\s/.test(data.slice(at, at + STEP_CHARS))) return true;
  }
  return false;
}

/** `data` without its whitespace, a step at a time. */
async function withoutWhitespace(data: string, pause: Pause): Promise<string> {
  const parts: string[] = [];
  for (let at = 0; at < data.length; at += STEP_CHARS) {
    if (at > 0) await pause();
    parts.push(data.slice(at, at + STEP_CHARS).replace(/\s+/g, ''));
  }
  return parts.join('');
}

/**
 * `keepBytes`: the decoded bytes past this many are checked but not kept (the route keeps one
 * byte more than the maximum job size: the printer cuts the job there and says so; a 48 MiB
 * payload's other 8 MiB were copied to the printer's object only to be dropped).
 */
export async function decodeImportPayload(data: string, format?: ImportFormat, pause: Pause = noPause, keepBytes = Infinity): Promise<DecodeResult> {
  // Most payloads carry no whitespace: no copy of a large string then.
  const compact = (await hasWhitespace(data, pause)) ? await withoutWhitespace(data, pause) : data;
  if (compact.length === 0) return { ok: false, error: 'The import payload is empty' };
  if (format === 'Hex') {
    const bytes = await decodeHex(compact, pause, keepBytes);
    return bytes ? { ok: true, bytes, format } : { ok: false, error: 'The payload is not valid hex (pairs of 0-9, A-F; whitespace allowed)' };
  }
  if (format === 'Base64') {
    const bytes = await decodeBase64(compact, pause, keepBytes);
    return bytes ? { ok: true, bytes, format } : { ok: false, error: 'The payload is not valid base64' };
  }
  const tokens = data.trim().split(/\s+/);
  const hex = await decodeHex(compact, pause, keepBytes);
  if (tokens.length > 1 && hex && tokens.every((t) => t.length % 2 === 0 && HEX.test(t))) {
    return { ok: true, bytes: hex, format: 'Hex' };
  }
  const b64 = await decodeBase64(compact, pause, keepBytes);
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
