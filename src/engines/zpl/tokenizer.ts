/**
 * ZPL II tokenizer: bytes in (any chunking), commands out.
 *
 * A ZPL command is a prefix (format `^` or control `~`, both changeable with ^CC / ^CT), a
 * two-letter code and parameters up to the next prefix. The exceptions this handles:
 *
 * - `^A` is one letter: the font name follows it (`^A0N,30` is font 0); `^A@` is its own.
 * - `^CC`, `^CT`, `^CD` (and their `~` forms) take exactly one character and change the
 *   framing at once: the next byte may already use the new prefix.
 * - Field data (`^FD`, `^FV`) and comments (`^FX`) run to the next prefix like any command,
 *   but a delimiter in them is data (a `,` in an address prints as itself). A `^` or `~` in
 *   field data needs ^FH escapes, as on a Zebra (a `~` starts a control command).
 * - `^GFB`, `^GFC` and `~DY…,B` carry a binary payload of a declared byte count, which may
 *   hold any byte including the prefixes.
 *
 * Line ends (CR, LF) are not part of ZPL: they are dropped from parameters (a Zebra ignores
 * them) but still counted in the token's bytes. Bytes outside any command (before the first
 * prefix, or garbage) become `text` tokens. Every byte pushed ends up in exactly one token, in
 * order, and the work is linear in the input: the byte-accounting invariant of the engines.
 */
import { ByteBuffer } from '../core/byte-buffer.ts';

export type Token =
  | {
      kind: 'command';
      /** Which prefix started it (the character may have been changed by ^CC / ^CT). */
      prefix: 'format' | 'control';
      /** Upper-case command code: 'XA', 'FO', 'A' (font), 'A@', 'B3', ... ('' when cut off). */
      code: string;
      /** Parameter text (latin1, one char per byte), without CR/LF and binary payload. */
      params: string;
      /** Binary payload of ^GFB / ~DY…B. */
      binary?: Uint8Array;
      bytes: Uint8Array;
      /** False when the job ended inside the command (its code or its binary payload). */
      complete: boolean;
    }
  | { kind: 'text'; bytes: Uint8Array; text: string };

/** The framing characters, as bytes; changed by ^CC, ^CT, ^CD. */
export interface Prefixes {
  format: number;
  control: number;
  delimiter: number;
}

export const DEFAULT_PREFIXES: Readonly<Prefixes> = Object.freeze({ format: 0x5e, control: 0x7e, delimiter: 0x2c });

const CR = 0x0d, LF = 0x0a;
/** A binary payload larger than this is not believed (the job is cut off at the budget). */
const MAX_BINARY = 16 * 1024 * 1024;


/** Bytes to a string, one char per byte. */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = '';
  const CHUNK = 8192;
  for (let i = start; i < end; i += CHUNK) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]);
  }
  return s;
}

/**
 * Commands without parameters that complete as soon as their code is read (the rest are
 * complete only when the next prefix shows where their parameters end).
 */
const IMMEDIATE_FORMAT: ReadonlySet<string> = new Set(['XA', 'XZ', 'FS', 'FR']);
const IMMEDIATE_CONTROL: ReadonlySet<string> = new Set(['HS', 'HI', 'HM', 'JA', 'PS', 'PP', 'JR', 'EG', 'JC', 'JL', 'WC']);

const upper = (b: number): number => (b >= 0x61 && b <= 0x7a ? b - 0x20 : b);

type State =
  | { kind: 'outside' }
  /** After a prefix: collecting the code letters. */
  | { kind: 'code'; prefix: 'format' | 'control'; letters: number[] }
  /** One-character parameter of ^CC / ^CT / ^CD. */
  | { kind: 'prefixChange'; prefix: 'format' | 'control'; code: string }
  /** The two letters of ~HQ. */
  | { kind: 'query'; letters: number }
  | { kind: 'params'; prefix: 'format' | 'control'; code: string; fieldData: boolean }
  | { kind: 'binary'; prefix: 'format' | 'control'; code: string; need: number; paramsEnd: number; binaryStart: number };

export class ZplTokenizer {
  readonly prefixes: Prefixes = { ...DEFAULT_PREFIXES };
  private cur = new ByteBuffer();
  /** Parameter bytes of the current command (without CR/LF). */
  private params = new ByteBuffer();
  private delimitersSeen = 0;
  private state: State = { kind: 'outside' };

  push(bytes: Uint8Array, emit: (t: Token) => void): void {
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      const st = this.state;
      if (st.kind === 'binary') {
        const take = Math.min(st.need, n - i);
        this.cur.append(bytes, i, i + take);
        i += take;
        st.need -= take;
        if (st.need === 0) this.emitCommand(emit, true);
        continue;
      }
      const b = bytes[i];
      const isFormat = b === this.prefixes.format;
      const isControl = b === this.prefixes.control;
      if (st.kind === 'outside') {
        if (isFormat || isControl) {
          this.flushText(emit);
          this.cur.push(b);
          this.state = { kind: 'code', prefix: isFormat ? 'format' : 'control', letters: [] };
        } else {
          // Scan a run of text at once.
          let j = i;
          while (j < n && bytes[j] !== this.prefixes.format && bytes[j] !== this.prefixes.control) j++;
          this.cur.append(bytes, i, j);
          i = j;
          continue;
        }
        i++;
        continue;
      }
      if (st.kind === 'code') {
        if (b === CR || b === LF) {
          this.cur.push(b);
          i++;
          continue;
        }
        if ((isFormat || isControl) && st.letters.length === 0) {
          // "^^": an empty command; the second prefix starts a new one.
          this.emitCommandWith(emit, st.prefix, '', false);
          continue;
        }
        if (isFormat || isControl) {
          // One letter then the next prefix: ^A without a font name, or an unknown command.
          this.emitCommandWith(emit, st.prefix, String.fromCharCode(upper(st.letters[0])), true);
          continue;
        }
        this.cur.push(b);
        i++;
        st.letters.push(b);
        const first = upper(st.letters[0]);
        if (st.letters.length === 1) continue;
        const second = upper(st.letters[1]);
        let code: string;
        if (first === 0x41 /* A */ && second !== 0x40 /* @ */ && st.prefix === 'format') {
          // ^A<font>: the second letter is the font name, the first parameter.
          code = 'A';
          this.params.push(st.letters[1]);
        } else {
          code = String.fromCharCode(first, second);
        }
        if (code === 'CC' || code === 'CT' || code === 'CD') {
          this.state = { kind: 'prefixChange', prefix: st.prefix, code };
        } else if ((st.prefix === 'format' ? IMMEDIATE_FORMAT : IMMEDIATE_CONTROL).has(code)) {
          // No parameters: complete now, so a status query is answered while the host waits.
          this.state = { kind: 'params', prefix: st.prefix, code, fieldData: false };
          this.emitCommand(emit, true);
        } else if (code === 'HQ' && st.prefix === 'control') {
          this.state = { kind: 'query', letters: 0 };
        } else {
          this.state = { kind: 'params', prefix: st.prefix, code, fieldData: st.prefix === 'format' && (code === 'FD' || code === 'FV' || code === 'FX') };
          this.delimitersSeen = 0;
        }
        continue;
      }
      if (st.kind === 'query') {
        // ~HQ takes a two-letter query (~HQES): complete after it for the same reason.
        if (isFormat || isControl) {
          this.state = { kind: 'params', prefix: 'control', code: 'HQ', fieldData: false };
          this.emitCommand(emit, true);
          continue;
        }
        this.cur.push(b);
        i++;
        if (b === CR || b === LF) continue;
        this.params.push(b);
        if (++st.letters === 2) {
          this.state = { kind: 'params', prefix: 'control', code: 'HQ', fieldData: false };
          this.emitCommand(emit, true);
        }
        continue;
      }
      if (st.kind === 'prefixChange') {
        if (b === CR || b === LF) {
          this.cur.push(b);
          i++;
          continue;
        }
        this.cur.push(b);
        this.params.push(b);
        i++;
        if (st.code === 'CC') this.prefixes.format = b;
        else if (st.code === 'CT') this.prefixes.control = b;
        else this.prefixes.delimiter = b;
        this.emitCommand(emit, true);
        continue;
      }
      // Parameters.
      if (isFormat || isControl) {
        this.emitCommand(emit, true);
        continue; // the prefix starts the next command
      }
      i++;
      this.cur.push(b);
      if (b === CR || b === LF) continue;
      this.params.push(b);
      if (b === this.prefixes.delimiter && !st.fieldData) {
        this.delimitersSeen++;
        const need = this.binaryPayload(st.code, st.prefix);
        if (need > 0) {
          this.state = { kind: 'binary', prefix: st.prefix, code: st.code, need, paramsEnd: this.params.length, binaryStart: this.cur.length };
        }
      }
    }
  }

  /** End of job: whatever is buffered becomes a final token. */
  flush(emit: (t: Token) => void): void {
    const st = this.state;
    if (st.kind === 'outside') this.flushText(emit);
    else if (st.kind === 'params') this.emitCommand(emit, true);
    else if (st.kind === 'query') {
      this.state = { kind: 'params', prefix: 'control', code: 'HQ', fieldData: false };
      this.emitCommand(emit, true);
    }
    else if (st.kind === 'code') {
      const l = st.letters;
      this.emitCommandWith(emit, st.prefix, l.length ? String.fromCharCode(upper(l[0])) : '', false);
    } else this.emitCommand(emit, false);
  }

  /**
   * Size of the binary payload that starts after this delimiter, or 0. ^GFa,b,c,d,DATA: with
   * a = B or C the data is b raw bytes. ~DYd:f,b,x,t,w,DATA: with b = B the data is t raw
   * bytes (with b = C, t is the size after decompression, so the data cannot be framed).
   */
  private binaryPayload(code: string, prefix: 'format' | 'control'): number {
    const parts = (): string[] => latin1(this.params.buf, 0, this.params.length).split(String.fromCharCode(this.prefixes.delimiter));
    if (code === 'GF' && prefix === 'format' && this.delimitersSeen === 4) {
      const p = parts();
      // B (binary) and C (compressed binary) data are b bytes that may hold any byte.
      const enc = p[0].trim().toUpperCase();
      if (enc !== 'B' && enc !== 'C') return 0;
      const size = Number(p[1].trim());
      return Number.isInteger(size) && size > 0 && size <= MAX_BINARY ? size : 0;
    }
    if (code === 'DY' && prefix === 'control' && this.delimitersSeen === 5) {
      const p = parts();
      if (p[1].trim().toUpperCase() !== 'B') return 0;
      const size = Number(p[3].trim());
      return Number.isInteger(size) && size > 0 && size <= MAX_BINARY ? size : 0;
    }
    return 0;
  }

  private flushText(emit: (t: Token) => void): void {
    if (this.cur.length === 0) return;
    const bytes = this.cur.take();
    emit({ kind: 'text', bytes, text: latin1(bytes) });
  }

  private emitCommand(emit: (t: Token) => void, complete: boolean): void {
    const st = this.state;
    if (st.kind === 'outside' || st.kind === 'code' || st.kind === 'query') return;
    let binary: Uint8Array | undefined;
    let params: string;
    if (st.kind === 'binary') {
      params = latin1(this.params.buf, 0, st.paramsEnd);
      binary = this.cur.buf.slice(st.binaryStart, this.cur.length);
    } else {
      params = latin1(this.params.buf, 0, this.params.length);
    }
    this.params.length = 0;
    if (this.params.buf.length > 65536) this.params = new ByteBuffer();
    const bytes = this.cur.take();
    this.state = { kind: 'outside' };
    emit({ kind: 'command', prefix: st.prefix, code: st.code, params, binary, bytes, complete });
  }

  private emitCommandWith(emit: (t: Token) => void, prefix: 'format' | 'control', code: string, complete: boolean): void {
    this.params.length = 0;
    const bytes = this.cur.take();
    this.state = { kind: 'outside' };
    emit({ kind: 'command', prefix, code, params: '', bytes, complete });
  }
}
