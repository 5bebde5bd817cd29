/**
 * Decoding of import payloads (contract "Import rules"):
 * 1. whitespace is ignored in both forms;
 * 2. a given `format` decides;
 * 3. without one, bytes spaced apart are hex; a payload valid as only one form is read as
 *    that form; a run-together payload valid as both is refused (the readings differ).
 *
 * The payload is decoded as it arrives (`ImportDecoder`, fed by the request body's stream):
 * the `format` may come after `data` in the JSON, so both readings are decoded side by side
 * until one of them fails, and the choice is made at the end.
 */
export type ImportFormat = 'Hex' | 'Base64';
export type DecodeResult = { ok: true; bytes: Uint8Array; format: ImportFormat } | { ok: false; error: string };

/** Where a payload's characters go, a run of ASCII bytes or one character at a time. */
export interface TextSink {
  /** Characters below 128, as the bytes `bytes[start..end)`. */
  ascii(bytes: Uint8Array, start: number, end: number): void;
  /** One character (a code point; a lone surrogate as itself). */
  char(codePoint: number): void;
}

/** Lets other requests and printers run (the Worker's thread is shared); a no-op by default. */
export type Pause = () => Promise<void>;
const noPause: Pause = async () => {};

/**
 * Characters handled between two pauses when a whole payload string is decoded (the streamed
 * body pauses by its own count): a 48 MiB payload is some hundred steps of a few ms.
 */
const STEP_CHARS = 1 << 19;

/** ASCII whitespace as `/\s/` sees it. */
const SPACE = (() => {
  const t = new Uint8Array(128);
  for (const c of [9, 10, 11, 12, 13, 32]) t[c] = 1;
  return t;
})();

/** Nibble value of each ASCII code (-1: not a hex digit). */
const NIBBLE = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/** Sextet value of each ASCII code in the base64 alphabet (-1: not in it; `=` is padding). */
const SEXTET = (() => {
  const t = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
})();
const PAD = 61; // '='

/**
 * Decoded bytes, at most `keep` of them kept (the rest counted). Its buffer is allocated at the
 * expected size when that is known (the memory is only touched as it is written) and grown
 * otherwise.
 */
class ByteSink {
  private buf: Uint8Array;
  count = 0;

  constructor(private readonly keep: number, expected: number) {
    this.buf = new Uint8Array(Math.min(keep, Math.max(expected, 256)));
  }

  put(b: number): void {
    if (this.count < this.buf.length) this.buf[this.count] = b;
    else if (this.count < this.keep) {
      const grown = new Uint8Array(Math.min(this.keep, this.buf.length * 2));
      grown.set(this.buf);
      this.buf = grown;
      this.buf[this.count] = b;
    }
    this.count++;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, Math.min(this.count, this.keep));
  }
}

/**
 * A payload decoded character by character as hex and as base64 at once, each reading dropped
 * (and its bytes freed) once the payload is not valid in that form.
 */
export class ImportDecoder implements TextSink {
  /** Characters seen (UTF-16 code units, as a JSON string's length counts them). */
  chars = 0;
  /** Characters that are not whitespace. */
  private compact = 0;
  private tokens = 0;
  private tokenLength = 0;
  private oddToken = false;

  private hex: ByteSink | null;
  private highNibble = -1;

  private b64: ByteSink | null;
  private quad = 0;
  private quadLength = 0;
  private padding = 0;

  /**
   * `keepBytes`: the decoded bytes past this many are checked but not kept (the route keeps one
   * byte more than the maximum job size: the printer cuts the job there and says so).
   * `expectedChars`: about how long the payload will be (a request body's length), to size the
   * buffers once.
   */
  constructor(keepBytes = Infinity, expectedChars = 0) {
    this.hex = new ByteSink(keepBytes, Math.ceil(expectedChars / 2));
    this.b64 = new ByteSink(keepBytes, Math.ceil((expectedChars * 3) / 4));
  }

  ascii(bytes: Uint8Array, start: number, end: number): void {
    for (let i = start; i < end; i++) this.take(bytes[i]);
  }

  char(codePoint: number): void {
    if (codePoint < 128) return this.take(codePoint);
    this.chars += codePoint > 0xffff ? 2 : 1;
    if (/\s/.test(String.fromCodePoint(codePoint))) this.endToken();
    else {
      this.compact++;
      this.tokenLength++;
      this.hex = this.b64 = null;
    }
  }

  /** A whole payload string, in steps with `pause` between. */
  async text(data: string, pause: Pause = noPause): Promise<void> {
    for (let at = 0; at < data.length; at += STEP_CHARS) {
      if (at > 0) await pause();
      const end = Math.min(data.length, at + STEP_CHARS);
      for (let i = at; i < end; i++) {
        const c = data.charCodeAt(i);
        if (c < 128) this.take(c);
        else if (c >= 0xd800 && c < 0xdc00 && i + 1 < end && data.charCodeAt(i + 1) >= 0xdc00 && data.charCodeAt(i + 1) < 0xe000) {
          this.char(data.codePointAt(i)!);
          i++;
        } else this.char(c);
      }
    }
  }

  private take(c: number): void {
    this.chars++;
    if (SPACE[c]) return this.endToken();
    this.compact++;
    this.tokenLength++;
    if (this.hex) {
      const n = NIBBLE[c];
      if (n < 0) this.hex = null;
      else if (this.highNibble < 0) this.highNibble = n;
      else {
        this.hex.put((this.highNibble << 4) | n);
        this.highNibble = -1;
      }
    }
    if (this.b64) {
      if (c === PAD) {
        if (++this.padding > 2) this.b64 = null;
        return;
      }
      const s = SEXTET[c];
      // Padding only at the very end.
      if (s < 0 || this.padding > 0) {
        this.b64 = null;
        return;
      }
      this.quad = (this.quad << 6) | s;
      if (++this.quadLength === 4) {
        this.b64.put((this.quad >> 16) & 0xff);
        this.b64.put((this.quad >> 8) & 0xff);
        this.b64.put(this.quad & 0xff);
        this.quad = this.quadLength = 0;
      }
    }
  }

  private endToken(): void {
    if (this.tokenLength === 0) return;
    this.tokens++;
    if (this.tokenLength % 2 !== 0) this.oddToken = true;
    this.tokenLength = 0;
  }

  private hexBytes(): Uint8Array | null {
    return this.hex && this.highNibble < 0 ? this.hex.bytes() : null;
  }

  private base64Bytes(): Uint8Array | null {
    const b64 = this.b64;
    if (!b64 || this.compact % 4 !== 0) return null;
    // The last group: two characters and `==` are one byte, three and `=` two.
    if (this.quadLength === 2) b64.put((this.quad >> 4) & 0xff);
    if (this.quadLength === 3) {
      b64.put((this.quad >> 10) & 0xff);
      b64.put((this.quad >> 2) & 0xff);
    }
    return b64.bytes();
  }

  /** The decision, once the whole payload has been seen; the decoder is spent. */
  finish(format?: ImportFormat): DecodeResult {
    this.endToken();
    const hex = this.hexBytes(), b64 = this.base64Bytes();
    this.hex = this.b64 = null;
    if (this.compact === 0) return { ok: false, error: 'The import payload is empty' };
    if (format === 'Hex') return hex ? { ok: true, bytes: hex, format } : { ok: false, error: 'The payload is not valid hex (pairs of 0-9, A-F; whitespace allowed)' };
    if (format === 'Base64') return b64 ? { ok: true, bytes: b64, format } : { ok: false, error: 'The payload is not valid base64' };
    if (hex && this.tokens > 1 && !this.oddToken) return { ok: true, bytes: hex, format: 'Hex' };
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
}

/** A whole payload string decoded (see ImportDecoder). */
export async function decodeImportPayload(data: string, format?: ImportFormat, pause: Pause = noPause, keepBytes = Infinity): Promise<DecodeResult> {
  const decoder = new ImportDecoder(keepBytes, data.length);
  await decoder.text(data, pause);
  return decoder.finish(format);
}
