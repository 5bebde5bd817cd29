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
  buf: Uint8Array;
  count = 0;

  constructor(private readonly keep: number, expected: number) {
    this.buf = new Uint8Array(Math.min(keep, Math.max(expected, 256)));
  }

  /**
   * The buffer, with room for `more` bytes after `count` or as many as are kept: a byte at
   * `count + k` (k < more) is written when that index is below `buf.length`, else dropped.
   */
  room(more: number): Uint8Array {
    if (this.count + more > this.buf.length && this.buf.length < this.keep) {
      const grown = new Uint8Array(Math.min(this.keep, Math.max(this.buf.length * 2, this.count + more)));
      grown.set(this.buf);
      this.buf = grown;
    }
    return this.buf;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, Math.min(this.count, this.buf.length));
  }
}

/**
 * Frees a buffer's memory now (detaches it) instead of at the isolate's next collection: the
 * memory of ArrayBuffers is outside the JavaScript heap, and workerd's allocator keeps the
 * pages of what piled up before a collection (a 48 MiB import's 16 MiB readings).
 */
export function releaseNow(bytes: Uint8Array | null): void {
  (bytes?.buffer as { transfer?: (length: number) => ArrayBuffer } | undefined)?.transfer?.(0);
}

/**
 * A payload decoded as it arrives, as hex and as base64 at once, each reading dropped (and its
 * bytes freed) once the payload is not valid in that form.
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
    this.chars += end - start;
    this.words(bytes, start, end);
    if (this.hex) this.hexRun(bytes, start, end);
    if (this.b64) this.base64Run(bytes, start, end);
  }

  char(codePoint: number): void {
    if (codePoint < 128) return this.ascii(Uint8Array.of(codePoint), 0, 1);
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
    const ascii = new Uint8Array(Math.min(data.length, STEP_CHARS));
    for (let at = 0; at < data.length; at += STEP_CHARS) {
      if (at > 0) await pause();
      const end = Math.min(data.length, at + STEP_CHARS);
      let n = 0;
      for (let i = at; i < end; i++) {
        const c = data.charCodeAt(i);
        if (c < 128) {
          ascii[n++] = c;
          continue;
        }
        this.ascii(ascii, 0, n);
        n = 0;
        const cp = data.codePointAt(i)!;
        this.char(cp);
        if (cp > 0xffff) i++;
      }
      this.ascii(ascii, 0, n);
    }
  }

  /** Whitespace-separated words: their count, whether any is of odd length, characters in them. */
  private words(bytes: Uint8Array, start: number, end: number): void {
    let length = this.tokenLength, compact = this.compact;
    for (let i = start; i < end; i++) {
      if (SPACE[bytes[i]]) {
        if (length === 0) continue;
        this.tokens++;
        if (length % 2 !== 0) this.oddToken = true;
        length = 0;
      } else {
        length++;
        compact++;
      }
    }
    this.tokenLength = length;
    this.compact = compact;
  }

  private hexRun(bytes: Uint8Array, start: number, end: number): void {
    const sink = this.hex!;
    const buf = sink.room(Math.ceil((end - start) / 2));
    let high = this.highNibble, n = sink.count;
    for (let i = start; i < end; i++) {
      const c = bytes[i];
      if (SPACE[c]) continue;
      const nibble = NIBBLE[c];
      if (nibble < 0) {
        this.hex = null;
        return;
      }
      if (high < 0) high = nibble;
      else {
        if (n < buf.length) buf[n] = (high << 4) | nibble;
        n++;
        high = -1;
      }
    }
    this.highNibble = high;
    sink.count = n;
  }

  private base64Run(bytes: Uint8Array, start: number, end: number): void {
    const sink = this.b64!;
    const buf = sink.room(Math.ceil(((end - start) * 3) / 4) + 3);
    let quad = this.quad, length = this.quadLength, padding = this.padding, n = sink.count;
    for (let i = start; i < end; i++) {
      const c = bytes[i];
      if (SPACE[c]) continue;
      const sextet = SEXTET[c];
      // Padding only at the very end, at most two.
      if (c === PAD ? ++padding > 2 : sextet < 0 || padding > 0) {
        this.b64 = null;
        return;
      }
      if (c === PAD) continue;
      quad = (quad << 6) | sextet;
      if (++length === 4) {
        if (n + 2 < buf.length) {
          buf[n] = quad >> 16;
          buf[n + 1] = (quad >> 8) & 0xff;
          buf[n + 2] = quad & 0xff;
        } else {
          for (let k = 0; k < 3; k++) if (n + k < buf.length) buf[n + k] = (quad >> (16 - 8 * k)) & 0xff;
        }
        n += 3;
        quad = length = 0;
      }
    }
    this.quad = quad;
    this.quadLength = length;
    this.padding = padding;
    sink.count = n;
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
    const sink = this.b64;
    if (!sink || this.compact % 4 !== 0) return null;
    // The last group: two characters and `==` are one byte, three and `=` two.
    const last = this.quadLength === 2 ? [(this.quad >> 4) & 0xff] : this.quadLength === 3 ? [(this.quad >> 10) & 0xff, (this.quad >> 2) & 0xff] : [];
    const buf = sink.room(last.length);
    for (const b of last) {
      if (sink.count < buf.length) buf[sink.count] = b;
      sink.count++;
    }
    return sink.bytes();
  }

  /** The decision, once the whole payload has been seen; the decoder is spent. */
  finish(format?: ImportFormat): DecodeResult {
    this.endToken();
    const result = this.decision(format, this.hexBytes(), this.base64Bytes());
    this.hex = this.b64 = null;
    return result;
  }

  private decision(format: ImportFormat | undefined, hex: Uint8Array | null, b64: Uint8Array | null): DecodeResult {
    const kept = this.choice(format, hex, b64);
    for (const reading of [hex, b64]) if (reading !== (kept.ok ? kept.bytes : null)) releaseNow(reading);
    return kept;
  }

  private choice(format: ImportFormat | undefined, hex: Uint8Array | null, b64: Uint8Array | null): DecodeResult {
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

/** A decoder that has seen the whole payload string `data`, in steps with `pause` between. */
export async function decoderOfText(data: string, keepBytes = Infinity, pause: Pause = noPause): Promise<ImportDecoder> {
  const decoder = new ImportDecoder(keepBytes, data.length);
  await decoder.text(data, pause);
  return decoder;
}

/** A whole payload string decoded (see ImportDecoder). */
export async function decodeImportPayload(data: string, format?: ImportFormat, pause: Pause = noPause, keepBytes = Infinity): Promise<DecodeResult> {
  return (await decoderOfText(data, keepBytes, pause)).finish(format);
}
