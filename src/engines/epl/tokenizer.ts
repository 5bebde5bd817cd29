/**
 * EPL2 line tokenizer. EPL is line based: a command ends with LF (a CR right before the LF
 * belongs to the terminator). Two commands carry binary payloads that may contain CR/LF:
 *
 * - `GWp1,p2,p3,p4,DATA`: the raster bytes (p3 * p4) follow the fourth comma on the same line;
 *   one optional line terminator right after the data is part of the command. Drivers also
 *   end the parameters with a line feed (or CR LF) instead of the comma: CUPS's
 *   `rastertolabel` sends `GW0,y,wb,1` LF, the row, LF.
 * - `GM"NAME"p1`: the line is terminated normally, then p1 bytes of PCX data follow.
 *
 * Bytes arrive in arbitrary chunks; the tokenizer keeps the partial token and resumes. Every
 * byte pushed ends up in exactly one token, in order (the byte-accounting invariant), and the
 * work is linear in the input size.
 */
import { ByteBuffer } from '../core/byte-buffer.ts';

export interface Token {
  /** All bytes of the token, including its terminator and binary payload. */
  bytes: Uint8Array;
  /** Bytes of the command text, without the line terminator and without binary payload. */
  textEnd: number;
  /** Binary payload range inside `bytes` (GW / GM), if any. */
  binaryStart?: number;
  binaryEnd?: number;
  /** False when the job ended before the token was complete (no LF, or short payload). */
  complete: boolean;
}

const LF = 0x0a, CR = 0x0d, COMMA = 0x2c;


type Mode =
  | { kind: 'line' }
  /** Reading `need` binary bytes; `after` says whether an optional terminator follows. */
  | { kind: 'binary'; need: number; textEnd: number; binaryStart: number; optionalTerminator: boolean }
  /** After a GW payload: an optional CR and/or LF still belongs to the command. */
  | { kind: 'terminator'; textEnd: number; binaryStart: number; binaryEnd: number; sawCR: boolean };

/**
 * Parse the GW header `GWx,y,wb,h` (bytes 0..end, a trailing comma allowed) and return
 * wb*h, or -1 when it is not four numbers.
 */
function gwPayloadSize(buf: Uint8Array, end: number): number {
  const fields = latin1(buf, 2, end).split(',');
  if (fields.length === 5 && fields[4] === '') fields.pop();
  const nums = fields.map((f) => (f.trim() === '' ? NaN : Number(f.trim())));
  if (nums.length !== 4 || nums.some((n) => !Number.isInteger(n) || n < 0)) return -1;
  return nums[2] * nums[3];
}

/** `GM"NAME"size` (possibly with spaces): the declared size, or -1. */
export function gmPayloadSize(text: string): number {
  const m = /^GM\s*"[^"]*"\s*,?\s*(\d{1,9})\s*$/.exec(text);
  return m ? Number(m[1]) : -1;
}

export class EplTokenizer {
  private cur = new ByteBuffer();
  private mode: Mode = { kind: 'line' };
  /** Line-mode helpers for GW detection: commas seen so far in the current line. */
  private commas = 0;
  private isGw = false;

  push(bytes: Uint8Array, emit: (t: Token) => void): void {
    let i = 0;
    const n = bytes.length;
    while (i < n) {
      const mode = this.mode;
      if (mode.kind === 'binary') {
        const take = Math.min(mode.need, n - i);
        this.cur.append(bytes, i, i + take);
        i += take;
        mode.need -= take;
        if (mode.need === 0) {
          const binaryEnd = this.cur.length;
          if (mode.optionalTerminator) {
            this.mode = { kind: 'terminator', textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd, sawCR: false };
          } else {
            this.emitToken(emit, { textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd, complete: true });
          }
        }
        continue;
      }
      if (mode.kind === 'terminator') {
        const c = bytes[i];
        if (c === LF) {
          this.cur.push(c);
          i++;
          this.emitToken(emit, { textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd: mode.binaryEnd, complete: true });
        } else if (c === CR && !mode.sawCR) {
          this.cur.push(c);
          i++;
          mode.sawCR = true;
        } else {
          this.emitToken(emit, { textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd: mode.binaryEnd, complete: true });
        }
        continue;
      }
      // Line mode.
      const c = bytes[i++];
      const len = this.cur.length;
      if (c === LF) {
        this.cur.push(c);
        const all = this.cur.buf;
        let textEnd = len;
        if (textEnd > 0 && all[textEnd - 1] === CR) textEnd--;
        // GW whose parameters end with the line: the raster follows the line feed.
        if (this.isGw && this.commas === 3) {
          const size = gwPayloadSize(all, textEnd);
          if (size > 0) {
            this.mode = { kind: 'binary', need: size, textEnd, binaryStart: this.cur.length, optionalTerminator: true };
            continue;
          }
        }
        // GM: binary payload after the terminated header line.
        if (textEnd >= 2 && all[0] === 0x47 && all[1] === 0x4d) {
          const size = gmPayloadSize(latin1(all, 0, textEnd));
          if (size > 0) {
            this.mode = { kind: 'binary', need: size, textEnd, binaryStart: this.cur.length, optionalTerminator: false };
            continue;
          }
        }
        this.emitToken(emit, { textEnd, complete: true });
        continue;
      }
      this.cur.push(c);
      if (len === 1) this.isGw = this.cur.buf[0] === 0x47 && c === 0x57; // "GW"
      if (this.isGw && c === COMMA) {
        this.commas++;
        if (this.commas === 4) {
          const size = gwPayloadSize(this.cur.buf, this.cur.length);
          if (size >= 0) {
            const textEnd = this.cur.length;
            if (size === 0) {
              this.mode = { kind: 'terminator', textEnd, binaryStart: textEnd, binaryEnd: textEnd, sawCR: false };
            } else {
              this.mode = { kind: 'binary', need: size, textEnd, binaryStart: textEnd, optionalTerminator: true };
            }
          }
        }
      }
    }
  }

  /** End of job: whatever is buffered becomes a final (possibly incomplete) token. */
  flush(emit: (t: Token) => void): void {
    const mode = this.mode;
    if (mode.kind === 'binary') {
      this.emitToken(emit, { textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd: this.cur.length, complete: false });
    } else if (mode.kind === 'terminator') {
      this.emitToken(emit, { textEnd: mode.textEnd, binaryStart: mode.binaryStart, binaryEnd: mode.binaryEnd, complete: true });
    } else if (this.cur.length > 0) {
      let textEnd = this.cur.length;
      while (textEnd > 0 && this.cur.buf[textEnd - 1] === CR) textEnd--;
      this.emitToken(emit, { textEnd, complete: false });
    }
  }

  private emitToken(emit: (t: Token) => void, t: Omit<Token, 'bytes'>): void {
    const bytes = this.cur.take();
    this.mode = { kind: 'line' };
    this.commas = 0;
    this.isGw = false;
    emit({ bytes, ...t });
  }
}

/** Bytes to a string, one char per byte (EPL commands are 8-bit). */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = '';
  const CHUNK = 8192;
  for (let i = start; i < end; i += CHUNK) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]);
  }
  return s;
}
