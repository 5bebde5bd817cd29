/**
 * Reads a JSON request body as it streams in, handing one top-level string property's
 * characters to a sink instead of keeping them: a 48 MiB import payload is decoded chunk by
 * chunk, and neither the body's text nor the string is ever whole in memory.
 *
 * Everything else in the body is kept as written ("the rest": the other properties, the
 * structure) with the streamed property's value left as `""`, for `JSON.parse` and the
 * route's validation as any body. This reader only finds the property and decodes that one
 * string (its escapes, its UTF-8); `JSON.parse` of the rest judges the syntax of the whole.
 */
import type { TextSink } from '../services/import-decoding.ts';

/** A malformed string in the streamed property (the rest is for `JSON.parse` to judge). */
export class JsonStringError extends Error {}

/** The body holds more than `maxRest` bytes besides the streamed string. */
export class JsonRestTooLarge extends Error {}

export interface StreamedFieldOptions {
  /** The property's name, matched case-insensitively (request property names are, contract section 2). */
  field: string;
  /** A sink for each occurrence of the property with a string value (the last one holds the value JSON.parse would give). */
  sink: () => TextSink;
  /** Most bytes of the rest kept. */
  maxRest: number;
  /** Called after each `pauseEvery` bytes of the body: other work runs on the shared thread. */
  pause: () => Promise<void>;
  pauseEvery: number;
}

/** The rest of the body (see the module comment) as text. */
export async function readStreamedField(body: ReadableStream<Uint8Array>, opts: StreamedFieldOptions): Promise<string> {
  const reader = new FieldReader(opts);
  let sincePause = 0;
  for await (const chunk of chunksOf(body)) {
    reader.feed(chunk);
    sincePause += chunk.length;
    if (sincePause >= opts.pauseEvery) {
      sincePause = 0;
      await opts.pause();
    }
  }
  return reader.rest();
}

/** Bytes read into one buffer again and again (a byte stream's BYOB reader); a chunk is valid until the next is read. */
const READ_BYTES = 1 << 16;

/**
 * The body's bytes. Read into one reused buffer where the stream allows it (a request body in
 * workerd does): a new ArrayBuffer per chunk was garbage outside the JavaScript heap, 48 MB of
 * it for an import before a collection freed any.
 */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream.
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      for (let at = 0; at < chunk.length; at += READ_BYTES) yield chunk.subarray(at, at + READ_BYTES);
    }
    return;
  }
  let buffer = new ArrayBuffer(READ_BYTES);
  for (;;) {
    const { value, done } = await byob.read(new Uint8Array(buffer));
    if (done || !value) return;
    yield value;
    buffer = value.buffer as ArrayBuffer;
  }
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c, OPEN_OBJECT = 0x7b, OPEN_ARRAY = 0x5b, CLOSE_OBJECT = 0x7d, CLOSE_ARRAY = 0x5d;
const REPLACEMENT = 0xfffd;
/** What each single-character escape stands for. */
const ESCAPED: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9 };
/** A property name longer than this is not the streamed one (it is kept in the rest all the same). */
const MAX_NAME_BYTES = 256;

type Mode =
  | 'rest' // outside any string
  | 'rest-string' // in a string of the rest
  | 'rest-escape' // after a backslash in a string of the rest
  | 'value' // in the streamed string
  | 'escape' // after a backslash in it
  | 'unicode' // in a \uXXXX of it
  | 'utf8'; // in a multi-byte UTF-8 character of it

class FieldReader {
  private readonly field: string;
  private readonly kept: Uint8Array[] = [];
  private keptBytes = 0;
  private mode: Mode = 'rest';
  private depth = 0;
  /** At the top level: a property name comes next; the one being read (raw); the last one read. */
  private nameExpected = false;
  private name: number[] | null = null;
  private lastName: string | null = null;
  /** The next value is the streamed property's. */
  private streamNext = false;
  private sink: TextSink | null = null;
  private escapeValue = 0;
  private escapeDigits = 0;
  private utf8: number[] = [];

  constructor(private readonly opts: StreamedFieldOptions) {
    this.field = opts.field.toLowerCase();
  }

  feed(chunk: Uint8Array): void {
    let keptFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.mode) {
        case 'rest':
          if (b === QUOTE && this.streamNext) {
            this.keep(chunk, keptFrom, i + 1);
            this.streamNext = false;
            this.sink = this.opts.sink();
            this.mode = 'value';
          } else this.structure(b);
          break;
        case 'rest-string':
          if (this.name && this.name.length <= MAX_NAME_BYTES) this.name.push(b);
          if (b === BACKSLASH) this.mode = 'rest-escape';
          else if (b === QUOTE) this.endRestString();
          break;
        case 'rest-escape':
          if (this.name && this.name.length <= MAX_NAME_BYTES) this.name.push(b);
          this.mode = 'rest-string';
          break;
        case 'value': {
          // A run of plain ASCII characters goes to the sink in one call.
          let end = i;
          while (end < chunk.length && chunk[end] >= 0x20 && chunk[end] < 0x80 && chunk[end] !== QUOTE && chunk[end] !== BACKSLASH) end++;
          if (end > i) this.sink!.ascii(chunk, i, end);
          i = end;
          if (i === chunk.length) break;
          const c = chunk[i];
          if (c === QUOTE) {
            keptFrom = i;
            this.mode = 'rest';
          } else if (c === BACKSLASH) this.mode = 'escape';
          else if (c < 0x20) throw new JsonStringError('Bad control character in string literal in JSON');
          else if (utf8Length(c) === 1) this.sink!.char(REPLACEMENT);
          else {
            this.utf8 = [c];
            this.mode = 'utf8';
          }
          break;
        }
        case 'escape':
          if (b === 0x75) {
            this.mode = 'unicode';
            this.escapeValue = this.escapeDigits = 0;
          } else if (ESCAPED[b] !== undefined) {
            this.sink!.char(ESCAPED[b]);
            this.mode = 'value';
          } else throw new JsonStringError(`Bad escaped character in JSON: \\${String.fromCharCode(b)}`);
          break;
        case 'unicode': {
          const d = hexValue(b);
          if (d < 0) throw new JsonStringError('Bad Unicode escape in JSON');
          this.escapeValue = (this.escapeValue << 4) | d;
          if (++this.escapeDigits === 4) {
            this.sink!.char(this.escapeValue);
            this.mode = 'value';
          }
          break;
        }
        case 'utf8':
          if ((b & 0xc0) === 0x80) {
            this.utf8.push(b);
            if (this.utf8.length < utf8Length(this.utf8[0])) break;
          } else i--; // not part of this character: read again as the string's next byte
          // One character, or U+FFFD for bytes that are not one (as TextDecoder reads them).
          for (const ch of new TextDecoder().decode(new Uint8Array(this.utf8))) this.sink!.char(ch.codePointAt(0)!);
          this.mode = 'value';
          break;
      }
    }
    if (this.mode === 'rest' || this.mode === 'rest-string' || this.mode === 'rest-escape') this.keep(chunk, keptFrom, chunk.length);
  }

  /** The rest as text; a body that ends inside the streamed string ends the rest there (JSON.parse says so). */
  rest(): string {
    const out = new Uint8Array(this.keptBytes);
    let at = 0;
    for (const p of this.kept) {
      out.set(p, at);
      at += p.length;
    }
    return new TextDecoder().decode(out);
  }

  /** A byte outside strings: tracks nesting and the top level's property names. */
  private structure(b: number): void {
    if (b <= 0x20) return; // whitespace (anything else below is for JSON.parse to refuse)
    const named = this.lastName;
    this.lastName = null;
    this.streamNext = false;
    if (b === QUOTE) {
      this.mode = 'rest-string';
      this.name = this.depth === 1 && this.nameExpected ? [] : null;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      this.depth++;
      this.nameExpected = this.depth === 1 && b === OPEN_OBJECT;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) this.depth--;
    else if (this.depth === 1 && b === COMMA) this.nameExpected = true;
    else if (this.depth === 1 && b === COLON) this.streamNext = named !== null && named.toLowerCase() === this.field;
  }

  private endRestString(): void {
    this.mode = 'rest';
    if (!this.name) return;
    this.lastName = nameOf(this.name);
    this.nameExpected = false;
    this.name = null;
  }

  private keep(bytes: Uint8Array, start: number, end: number): void {
    this.keptBytes += end - start;
    if (this.keptBytes > this.opts.maxRest) throw new JsonRestTooLarge(`The request body holds more than ${this.opts.maxRest} bytes besides "${this.opts.field}"`);
    if (end > start) this.kept.push(bytes.slice(start, end));
  }
}

/** A property name from its raw bytes after the opening quote (the closing one included). */
function nameOf(raw: number[]): string | null {
  if (raw.length > MAX_NAME_BYTES) return null;
  try {
    return JSON.parse(new TextDecoder().decode(new Uint8Array([QUOTE, ...raw]))) as string;
  } catch {
    return null;
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/** Bytes of a UTF-8 character from its first byte (1: a byte that cannot start one). */
function utf8Length(first: number): number {
  return first >= 0xf8 ? 1 : first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
}
