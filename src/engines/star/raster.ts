/**
 * Star raster mode (STAR Line Mode Command Specifications, "Raster graphics command
 * details"): what Star's drivers for the TSP100 family send. Between ESC * r A and
 * ESC * r B the stream is raster lines (`b n1 n2 d1..dk`, one dot row each) and raster
 * settings (`ESC * r x n NUL`), not text: bytes such as 'b' are commands and raster data may
 * hold any byte. The Star session hands the bytes of raster mode to `RasterFramer`, which
 * frames them with the raster table below and runs each through the receipt machine's
 * command bookkeeping (debug element, errors, offsets, pending cut), like any command.
 */
import { MAX_NUL_TERMINATED, NUL_TERMINATED, fixed, type CommandEntry, type LenFn, type Outcome } from '../core/commands.ts';
import { hexByte } from '../core/hex.ts';
import { cropWidth } from '../escpos/images.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { ESC, ch } from './define.ts';
import type { StarMachine } from './machine.ts';
import { starEnq, starEot } from './status.ts';

/** Rows one raster page may hold before it is printed as a block (about 50 cm of paper; bounds the job's memory). */
const MAX_PAGE_ROWS = 4096;

/** The raster page being built: rows of packed bits, printed as one block on FF / EOT / quit. */
export class RasterPage {
  rows: Uint8Array[] = [];
  widthBytes = 0;
  /** ESC * r E n NUL: what the end of a page (ESC FF EOT, ESC * r B) does; n = 1 does not cut. */
  eotMode = 0;

  add(row: Uint8Array): void {
    this.rows.push(row);
    if (row.length > this.widthBytes) this.widthBytes = row.length;
  }

  skip(n: number): void {
    for (let i = 0; i < n; i++) this.rows.push(new Uint8Array(0));
  }

  /** The page as a bitmap (null when empty), and the page cleared. */
  take(): Bitmap | null {
    const rows = this.rows;
    this.rows = [];
    const wb = this.widthBytes;
    this.widthBytes = 0;
    if (rows.length === 0 || wb === 0) return null;
    const packed = new Uint8Array(wb * rows.length);
    rows.forEach((r, y) => packed.set(r, y * wb));
    return Bitmap.fromPackedRows(wb, rows.length, packed, 0);
  }
}

/** ASCII decimal parameter of `ESC * r x n NUL` (or of `ESC * r m l n NUL`). */
function asciiNumber(b: Uint8Array, from: number): number | null {
  let s = '';
  for (let i = from; i < b.length - 1; i++) s += String.fromCharCode(b[i]);
  return /^\d+$/.test(s) ? Number(s) : null;
}

/** Prints the raster page built so far, cutting after it unless the EOT mode says not to. */
function endPage(m: StarMachine, cut: boolean): string {
  const bmp = m.raster.take();
  let text = 'no raster data';
  if (bmp) {
    text = `raster image ${bmp.width}x${bmp.height} dots`;
    m.layout.placeBlock(cropWidth(bmp, m.width), m.src('', ['Raster data', text], 0));
  }
  if (cut && m.raster.eotMode !== 1) {
    m.cut(0);
    text += ', cut';
  }
  return text;
}

const escStarR: LenFn = (b, n) => {
  if (n < 4) return 4;
  return 'ABCR'.includes(String.fromCharCode(b[3])) ? 4 : NUL_TERMINATED;
};

type RasterCommand = CommandEntry<StarMachine>;

const line: RasterCommand = {
  prefix: [ch('b')], name: 'b n1 n2', summary: 'Send raster data (auto line feed)', header: 3,
  length: (b, n) => (n < 3 ? 3 : 3 + b[1] + b[2] * 256),
  run(m, b) {
    const k = b[1] + b[2] * 256;
    // Data beyond the print width is discarded, as the printer does.
    const keep = Math.min(k, Math.ceil(m.width / 8));
    if (m.raster.rows.length >= MAX_PAGE_ROWS) endPage(m, false);
    m.raster.add(b.slice(3, 3 + keep));
    return { text: `Raster line, ${k} bytes${k > keep ? ` (${k - keep} beyond the print width discarded)` : ''}` };
  },
};

const settings: RasterCommand = {
  prefix: [ESC, ch('*')], name: 'ESC * r', summary: 'Raster mode settings', header: 12, length: escStarR,
  run(m, b): Outcome {
    if (b[2] !== ch('r')) return { text: `Unknown raster command ESC * ${hexByte(b[2])}`, kind: 'unknown', error: `no raster command ESC * 0x${hexByte(b[2])}` };
    const f = String.fromCharCode(b[3]);
    switch (f) {
      case 'A': return { text: 'Enter raster mode (already in raster mode: ignored)' };
      case 'B': {
        const text = endPage(m, m.raster.rows.length > 0);
        m.rasterMode = false;
        return { text: `Quit raster mode (${text})` };
      }
      case 'C': m.raster.take(); return { text: 'Clear raster data' };
      case 'R': m.raster.eotMode = 0; return { text: 'Initialize raster mode' };
      case 'E': {
        const n = asciiNumber(b, 4);
        if (n === null) return { text: 'Raster EOT mode: invalid', kind: 'malformed', error: 'ESC * r E needs a decimal number' };
        m.raster.eotMode = n;
        return { text: `Raster EOT mode ${n}${n === 1 ? ' (no cut)' : ''}` };
      }
      case 'Y': {
        const n = asciiNumber(b, 4);
        if (n === null) return { text: 'Raster vertical move: invalid', kind: 'malformed', error: 'ESC * r Y needs a decimal number' };
        m.raster.skip(Math.min(n, MAX_PAGE_ROWS));
        return { text: `Move ${n} dot rows down` };
      }
      default: {
        const names: Record<string, string> = { F: 'FF mode', P: 'page length', Q: 'print quality', T: 'top margin', m: 'left/right margin', K: 'print color' };
        const name = names[f];
        if (!name) return { text: `Unknown raster setting ESC * r ${f}`, kind: 'unknown', error: `no raster command ESC * r ${f}` };
        return { text: `Raster ${name}: ${Array.from(b.subarray(4, b.length - 1), (c) => String.fromCharCode(c)).join('')}` };
      }
    }
  },
};

const formFeed: RasterCommand = {
  prefix: [ESC, 0x0c], name: 'ESC FF n', summary: 'Raster form feed (NUL) or end of transmission (EOT)', length: fixed(3),
  run(m, b) {
    if (b[2] === 0x04) return { text: `Raster EOT: ${endPage(m, true)}` };
    if (b[2] === 0x00) return { text: `Raster form feed: ${endPage(m, false)}` };
    return { text: `ESC FF ${b[2]}: invalid`, kind: 'malformed', error: `ESC FF ${b[2]}: must be NUL or EOT` };
  },
};

function drawer(n: 1 | 2): (m: StarMachine) => Outcome {
  return (m) => {
    m.emit({ type: 'drawerKick', drawer: n });
    return { text: `Drive peripheral device ${n} (drawer ${n})` };
  };
}

const SINGLES: RasterCommand[] = [
  line,
  { prefix: [ch('k')], name: 'k n1 n2', summary: 'Send raster data', header: 3, length: line.length, run: line.run },
  { prefix: [0x0c], name: 'FF', summary: 'Raster form feed', length: fixed(1), run: (m) => ({ text: `Raster form feed: ${endPage(m, false)}` }) },
  { prefix: [0x07], name: 'BEL', summary: 'Drive peripheral device 1', length: fixed(1), run: drawer(1) },
  { prefix: [0x1c], name: 'FS', summary: 'Drive peripheral device 1', length: fixed(1), run: drawer(1) },
  { prefix: [0x1a], name: 'SUB', summary: 'Drive peripheral device 2', length: fixed(1), run: drawer(2) },
  { prefix: [0x19], name: 'EM', summary: 'Drive peripheral device 2', length: fixed(1), run: drawer(2) },
  { prefix: [0x05], name: 'ENQ', summary: 'Inquire ENQ status', length: fixed(1), run: (m) => (m.reply(Uint8Array.of(starEnq(m.statusInput()))), { text: 'ENQ status' }) },
  { prefix: [0x04], name: 'EOT', summary: 'Inquire EOT status', length: fixed(1), run: (m) => (m.reply(Uint8Array.of(starEot(m.statusInput()))), { text: 'EOT status' }) },
];

const ESCAPED: Record<number, RasterCommand> = {
  [ch('*')]: settings,
  [0x0c]: formFeed,
  [0x06]: { prefix: [ESC, 0x06], name: 'ESC ACK SOH', summary: 'Inquire automatic status', length: fixed(3), run: (m) => (m.sendAsb(), { text: 'Automatic status sent' }) },
  [0x07]: { prefix: [ESC, 0x07], name: 'ESC BEL n1 n2', summary: 'Set pulse width', length: fixed(4), run: (_m, b) => ({ text: `Drawer pulse: on ${b[2] * 10} ms, off ${b[3] * 10} ms` }) },
};

const UNKNOWN: RasterCommand = {
  prefix: [0x00], name: 'unknown', summary: 'Not a raster mode command', length: fixed(1),
  run: (_m, b) => ({ text: `Not a raster mode command: 0x${hexByte(b[0])}`, kind: 'unknown', error: `byte 0x${hexByte(b[0])} is not a raster mode command` }),
};
const UNKNOWN_ESC: RasterCommand = {
  prefix: [ESC, 0x00], name: 'unknown', summary: 'Not a raster mode command', length: fixed(2),
  run: (_m, b) => ({ text: `Not a raster mode command: ESC 0x${hexByte(b[1])}`, kind: 'unknown', error: `ESC 0x${hexByte(b[1])} is not a raster mode command` }),
};

const SINGLE_TABLE: (RasterCommand | undefined)[] = new Array(256);
for (const c of SINGLES) SINGLE_TABLE[c.prefix[0]] = c;

/**
 * Frames raster-mode bytes (any chunking) into raster commands and runs them on the machine.
 * `push` returns how many bytes of `chunk[from..]` it used: it stops right after the command
 * that left raster mode, so the session gives the rest back to the normal framer.
 */
export class RasterFramer {
  private buf = new Uint8Array(64);
  private len = 0;
  private spec: RasterCommand | null = null;

  constructor(private readonly machine: StarMachine) {}

  push(chunk: Uint8Array, from: number): number {
    let i = from;
    const m = this.machine;
    while (m.rasterMode) {
      if (this.complete()) continue;
      if (i >= chunk.length) break;
      if (this.spec === null) {
        this.append(chunk[i++]);
        const b0 = this.buf[0];
        if (b0 !== ESC) this.spec = SINGLE_TABLE[b0] ?? UNKNOWN;
        else if (this.len >= 2) this.spec = ESCAPED[this.buf[1]] ?? UNKNOWN_ESC;
        continue;
      }
      const need = this.spec.length(this.buf, this.len);
      if (need === NUL_TERMINATED) {
        this.append(chunk[i++]);
        continue;
      }
      // Copy up to the length known so far (raster data in bulk), then ask again.
      const take = Math.min(need - this.len, chunk.length - i);
      this.appendAll(chunk, i, i + take);
      i += take;
    }
    return i - from;
  }

  /** Runs the command collected so far if it is complete; true when one ran. */
  private complete(): boolean {
    const spec = this.spec;
    if (spec === null) return false;
    const need = spec.length(this.buf, this.len);
    const done =
      need === NUL_TERMINATED
        ? this.len > 4 && (this.buf[this.len - 1] === 0 || this.len > MAX_NUL_TERMINATED)
        : need <= this.len;
    if (!done) return false;
    const bytes = this.buf.slice(0, this.len);
    this.len = 0;
    this.spec = null;
    this.machine.command(spec, bytes, false);
    return true;
  }

  /** The job ended: a command cut off, and a raster page left unprinted, are reported and printed. */
  finish(): void {
    const m = this.machine;
    if (this.len > 0) {
      m.truncated(this.spec, this.buf.slice(0, this.len));
      this.len = 0;
    }
    if (m.rasterMode && m.raster.rows.length > 0) {
      m.doc.error('Job ended in raster mode: the raster page was printed as if ESC * r B had been sent');
      endPage(m, true);
    }
    m.rasterMode = false;
  }

  private append(v: number): void {
    this.reserve(1);
    this.buf[this.len++] = v;
  }

  private appendAll(src: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.buf.set(src.subarray(start, end), this.len);
    this.len += end - start;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const nb = new Uint8Array(size);
    nb.set(this.buf.subarray(0, this.len));
    this.buf = nb;
  }
}

/**
 * Finds where ESC * r A (enter raster mode) ends in the byte stream, across chunks, so the
 * session can hand the normal framer the bytes up to it and check whether the machine then
 * entered raster mode (the sequence may also sit inside other data: then nothing changes).
 */
export class RasterEntry {
  private matched = 0;
  private static readonly SEQ = [0x1b, 0x2a, 0x72, 0x41];

  /** The index just past the next ESC * r A in `chunk[from..]`, or the chunk's end. */
  scan(chunk: Uint8Array, from: number): number {
    const seq = RasterEntry.SEQ;
    let i = from;
    while (i < chunk.length) {
      if (this.matched === 0) {
        // Jump to the next ESC: most bytes are text.
        const esc = chunk.indexOf(0x1b, i);
        if (esc < 0) return chunk.length;
        i = esc;
      }
      const b = chunk[i++];
      if (b === seq[this.matched]) this.matched++;
      else this.matched = b === seq[0] ? 1 : 0;
      if (this.matched === seq.length) {
        this.matched = 0;
        return i;
      }
    }
    return chunk.length;
  }
}
