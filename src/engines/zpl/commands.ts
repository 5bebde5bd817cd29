/**
 * The ZPL command table: every command is ONE entry carrying the prefixes and code it is
 * sent with (its bytes), what it does (the description shown on its debug element and in
 * docs), and its handler, which parses its parameters with Zebra's defaults and runs it on
 * the label machine. A command that is not in the table is unknown (reported, never
 * dropped silently); two entries for one command throw when the table is built.
 */
import { BARCODES } from './barcodes.ts';
import { charset } from './charsets.ts';
import { residentFont, sizeFont, SCALABLE_DEFAULT } from './fonts.ts';
import { decodeGraphic, decodeZb64 } from './graphic-data.ts';
import { decodePng } from './png-objects.ts';
import { preview, type ZplMachine } from './machine.ts';
import { objectName, Params, wildcard, type Orientation } from './params.ts';
import { configurationLabel, hardwareAddress, hostIdentification, hostMemory, serialNumber } from './replies.ts';
import { diagonal, ellipse, MAX_SHAPE } from './shapes.ts';

export interface Outcome {
  /** Second line of the debug element's description. */
  text: string;
  /** 'command' (default) is fine; 'malformed' and 'unknown' also make an error message. */
  kind?: 'command' | 'malformed' | 'unknown';
  /** An error message for the document (the command ran partly or not at all). */
  error?: string;
}

export interface CommandInput {
  params: string;
  binary?: Uint8Array;
}

export interface ZplCommand {
  /** The command as sent, with its prefix: '^FO', '~HS'. Both prefixes when both exist. */
  ids: readonly string[];
  /** What the command is, as the ZPL II guide names it. */
  summary: string;
  run(m: ZplMachine, p: Params, input: CommandInput): Outcome;
}

const MAX_DOTS = 32000;

const ok = (text: string): Outcome => ({ text });

/** An outcome for a command whose parameters had problems (it still ran with defaults). */
function checked(p: Params, text: string): Outcome {
  if (p.problems.length === 0) return { text };
  return { text, kind: 'malformed', error: p.problems.join('; ') };
}

/** A setting the emulator records but that changes nothing it draws. */
function setting(ids: string[], summary: string, record?: (m: ZplMachine, p: Params) => string | void): ZplCommand {
  return {
    ids,
    summary,
    run: (m, p) => {
      const said = record?.(m, p);
      return checked(p, said || `${summary} (setting accepted)`);
    },
  };
}

function orientationOf(p: Params, i: number, m: ZplMachine): Orientation {
  return p.orientation(i, m.settings.fieldOrientation);
}

// ---------------------------------------------------------------------------------------------
// Format and field commands

const FORMAT: ZplCommand[] = [
  {
    ids: ['^XA'],
    summary: 'Start Format',
    run: (m) => {
      const w = m.startFormat();
      return w ? { text: 'Start of format', kind: 'malformed', error: w } : ok('Start of format');
    },
  },
  {
    ids: ['^XZ'],
    summary: 'End Format',
    run: (m) => {
      if (!m.format) return { text: 'End of format without a start', kind: 'malformed', error: '^XZ without ^XA' };
      return ok(m.endFormat());
    },
  },
  {
    ids: ['^PQ'],
    summary: 'Print Quantity',
    run: (m, p) => {
      const q = p.int(0, 'quantity', 1, 1, 99999999);
      p.int(1, 'pause and cut value', 0, 0, 99999999);
      const r = p.int(2, 'replicates of each serial number', 0, 0, 99999999);
      p.yes(3, 'override pause count', false);
      m.setQuantity(q, r);
      return checked(p, `Print ${q} label${q === 1 ? '' : 's'}${r ? `, ${r + 1} of each serial number` : ''}`);
    },
  },
  {
    ids: ['^DF'],
    summary: 'Download Format',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'ZPL');
      m.beginStore(name);
      return ok(`Store the rest of this format as ${name}`);
    },
  },
  {
    ids: ['^XF'],
    summary: 'Recall Format',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'ZPL');
      const stored = m.memory.forms.get(name);
      if (!stored) return { text: `Recall format ${name}`, kind: 'malformed', error: `format ${name} is not in printer memory` };
      m.markRecalled();
      replayFormat(m, stored.commands);
      return ok(`Recall format ${name} (${stored.commands.length} commands)`);
    },
  },
  {
    ids: ['^FN'],
    summary: 'Field Number',
    run: (m, p) => {
      const n = p.int(0, 'field number', 0, 0, 9999);
      m.field.fieldNumber = n;
      return checked(p, `Field number ${n}`);
    },
  },
  {
    ids: ['^FO'],
    summary: 'Field Origin',
    run: (m, p) => origin(m, p, false),
  },
  {
    ids: ['^FT'],
    summary: 'Field Typeset',
    run: (m, p) => origin(m, p, true),
  },
  {
    ids: ['^FD'],
    summary: 'Field Data',
    run: (m, p, input) => fieldData(m, input.params),
  },
  {
    ids: ['^FV'],
    summary: 'Field Variable',
    run: (m, p, input) => fieldData(m, input.params),
  },
  {
    ids: ['^FS'],
    summary: 'Field Separator',
    run: (m) => ok(m.finishField()),
  },
  {
    ids: ['^FH'],
    summary: 'Field Hexadecimal Indicator',
    run: (m, p) => {
      const c = (p.values[0] ?? '').trim() || '_';
      m.field.hexEscape = c[0];
      return ok(`Hexadecimal escapes start with '${c[0]}'`);
    },
  },
  {
    ids: ['^FX'],
    summary: 'Comment',
    run: (m, p, input) => ok(`Comment: ${preview(input.params)}`),
  },
  {
    ids: ['^FR'],
    summary: 'Field Reverse Print',
    run: (m) => {
      m.field.reverse = true;
      return ok('Field printed reversed (white on black)');
    },
  },
  {
    ids: ['^FW'],
    summary: 'Field Orientation',
    run: (m, p) => {
      m.settings.fieldOrientation = p.orientation(0, m.settings.fieldOrientation);
      m.settings.fieldJustification = p.int(1, 'justification', m.settings.fieldJustification, 0, 2) as 0 | 1 | 2;
      return checked(p, `Default field orientation ${m.settings.fieldOrientation}`);
    },
  },
  {
    ids: ['^FB'],
    summary: 'Field Block',
    run: (m, p) => {
      const width = p.int(0, 'block width', 0, 0, MAX_DOTS);
      const maxLines = p.int(1, 'maximum lines', 1, 1, 9999);
      const lineSpacing = p.int(2, 'line spacing', 0, -9999, 9999);
      const justification = p.choice(3, 'justification', ['L', 'C', 'R', 'J'] as const, 'L');
      const hangingIndent = p.int(4, 'hanging indent', 0, 0, 9999);
      m.field.block = { width, maxLines, lineSpacing, justification, hangingIndent };
      return checked(p, `Field block ${width} dots wide, ${maxLines} line${maxLines === 1 ? '' : 's'}, ${justification}`);
    },
  },
  {
    ids: ['^TB'],
    summary: 'Text Block',
    run: (m, p) => {
      const o = orientationOf(p, 0, m);
      const width = p.int(1, 'block width', 0, 0, MAX_DOTS);
      const height = p.int(2, 'block height', 0, 0, MAX_DOTS);
      const cur = m.currentFont();
      m.field.font = { font: cur.font, orientation: o };
      m.field.block = { width, maxLines: 9999, lineSpacing: 0, justification: 'L', hangingIndent: 0, height };
      return checked(p, `Text block ${width}x${height}`);
    },
  },
  {
    ids: ['^SN'],
    summary: 'Serialization Data',
    run: (m, p, input) => {
      const value = p.values[0] ?? '';
      const increment = p.int(1, 'increment', 1, -999999999, 999999999);
      const leadingZeros = p.yes(2, 'leading zeros', false);
      m.field.data = value;
      m.field.charset = m.settings.charset;
      m.field.serial = { kind: 'SN', increment, leadingZeros };
      void input;
      return checked(p, `Serial number from "${preview(value)}", step ${increment}`);
    },
  },
  {
    ids: ['^SF'],
    summary: 'Serialization Field',
    run: (m, p) => {
      const mask = p.raw(0);
      const increment = p.raw(1) || '1';
      m.field.serial = { kind: 'SF', mask, increment };
      return ok(`Serialized with mask "${mask}", increment "${increment}"`);
    },
  },
  setting(['^SL'], 'Set Mode and Language (real-time clock)'),
  setting(['^ST'], 'Set Date and Time (real-time clock)'),
  setting(['^FC'], 'Field Clock'),
  setting(['^FP'], 'Field Parameter'),
  setting(['^FM'], 'Multiple Field Origin Locations'),
  setting(['^FL'], 'Font Linking'),
];

function origin(m: ZplMachine, p: Params, typeset: boolean): Outcome {
  const x = p.int(0, 'x', 0, 0, MAX_DOTS);
  const y = p.int(1, 'y', 0, 0, MAX_DOTS);
  const justification = p.int(2, 'justification', m.settings.fieldJustification, 0, 2) as 0 | 1 | 2;
  if (m.fieldHasContent() && m.field.origin !== null && (m.field.data !== null || m.field.graphic !== null)) {
    // A new origin after a complete field without ^FS: Zebra starts a new field.
    m.finishField();
  }
  m.field.origin = { x: x + m.settings.homeX, y: y + m.settings.homeY, typeset, justification };
  return checked(p, `${typeset ? 'Typeset' : 'Origin'} at ${x},${y}`);
}

function fieldData(m: ZplMachine, data: string): Outcome {
  m.field.data = data;
  m.field.charset = m.settings.charset;
  return ok(`Data "${preview(data)}"`);
}

/** ^XF: run the stored commands as if they were received here. */
function replayFormat(m: ZplMachine, commands: readonly import('./state.ts').StoredCommand[]): void {
  for (const c of commands) {
    const entry = lookupCommand(c.prefix, c.code);
    if (!entry) continue;
    try {
      entry.run(m, new Params(c.params, c.delimiter), { params: c.params, binary: c.binary });
    } catch {
      // A stored command that fails is skipped; it was reported when it was stored.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Fonts and character sets

const FONTS: ZplCommand[] = [
  {
    ids: ['^A'],
    summary: 'Scalable/Bitmapped Font',
    run: (m, p) => {
      // "^A0N,30,20": the font name is the first character of the first parameter.
      const first = p.values[0] ?? '';
      const name = first.slice(0, 1).toUpperCase() || m.settings.defaultFont;
      const o = first.length > 1 ? (first.slice(1).trim().toUpperCase() as string) : '';
      const orientation: Orientation = o === '' ? m.settings.fieldOrientation : (['N', 'R', 'I', 'B'].includes(o) ? (o as Orientation) : m.settings.fieldOrientation);
      if (o !== '' && !['N', 'R', 'I', 'B'].includes(o)) p.problems.push(`orientation '${o}' is not one of N, R, I, B`);
      const h = p.has(1) ? p.int(1, 'height', 0, 0, MAX_DOTS) : null;
      const w = p.has(2) ? p.int(2, 'width', 0, 0, MAX_DOTS) : null;
      let font = residentFont(name === 'G' && first.slice(0, 2).toUpperCase() === 'GS' ? 'GS' : name, m.dpi);
      let note = '';
      if (!font) {
        font = residentFont('0', m.dpi)!;
        note = ` (font ${name} is not resident: font 0 prints)`;
        p.problems.push(`font ${name} is not a resident font; font 0 is used`);
      }
      const fallback = font.kind === 'scalable' ? { height: m.settings.defaultHeight ?? SCALABLE_DEFAULT.height, width: m.settings.defaultWidth ?? SCALABLE_DEFAULT.width } : { height: font.height, width: font.width };
      const sized = sizeFont(font, h || null, w || null, fallback);
      m.field.font = { font: sized, orientation };
      return checked(p, `Font ${font.name}${orientation}, ${sized.height}x${sized.width} dots${note}`);
    },
  },
  {
    ids: ['^A@'],
    summary: 'Use Font Name to Call Font',
    run: (m, p) => {
      const orientation = orientationOf(p, 0, m);
      const h = p.has(1) ? p.int(1, 'height', 0, 0, MAX_DOTS) : null;
      const w = p.has(2) ? p.int(2, 'width', 0, 0, MAX_DOTS) : null;
      const name = p.raw(3);
      const sized = sizeFont(residentFont('0', m.dpi)!, h || null, w || null, SCALABLE_DEFAULT);
      m.field.font = { font: sized, orientation };
      return checked(p, `Font ${name || '(unnamed)'} (printed with font 0), ${sized.height}x${sized.width} dots`);
    },
  },
  {
    ids: ['^CF'],
    summary: 'Change Alphanumeric Default Font',
    run: (m, p) => {
      const name = (p.raw(0) || m.settings.defaultFont).toUpperCase();
      if (!residentFont(name, m.dpi)) p.problems.push(`font ${name} is not a resident font`);
      else m.settings.defaultFont = name;
      m.settings.defaultHeight = p.has(1) ? p.int(1, 'height', 9, 1, MAX_DOTS) : null;
      m.settings.defaultWidth = p.has(2) ? p.int(2, 'width', 5, 1, MAX_DOTS) : null;
      const f = m.defaultFont();
      return checked(p, `Default font ${m.settings.defaultFont}, ${f.height}x${f.width} dots`);
    },
  },
  {
    ids: ['^CI'],
    summary: 'Change International Font/Encoding',
    run: (m, p) => {
      const id = p.int(0, 'character set', 0, 0, 36);
      const cs = charset(id);
      m.settings.charset = cs;
      if (!cs.exact) return { text: `Character set ${id}: ${cs.name}`, kind: 'malformed', error: `^CI${id} (${cs.name}) is not emulated: field data is decoded as Code Page 850` };
      return checked(p, `Character set ${id}: ${cs.name}`);
    },
  },
  setting(['^CW'], 'Font Identifier'),
  setting(['^CO'], 'Cache On'),
  setting(['^CV'], 'Code Validation'),
];

// ---------------------------------------------------------------------------------------------
// Graphics and stored objects

const GRAPHICS: ZplCommand[] = [
  {
    ids: ['^GB'],
    summary: 'Graphic Box',
    run: (m, p) => {
      const t = p.int(2, 'border thickness', 1, 1, MAX_DOTS);
      const w = Math.max(t, p.int(0, 'box width', t, 1, MAX_DOTS));
      const h = Math.max(t, p.int(1, 'box height', t, 1, MAX_DOTS));
      const white = p.choice(3, 'line color', ['B', 'W'] as const, 'B') === 'W';
      const rounding = p.int(4, 'corner rounding', 0, 0, 8);
      m.field.graphic = { kind: 'box', width: w, height: h, thickness: t, white, rounding };
      return checked(p, `Box ${w}x${h}, border ${t}${white ? ', white' : ''}${rounding ? `, rounding ${rounding}` : ''}`);
    },
  },
  {
    ids: ['^GC'],
    summary: 'Graphic Circle',
    run: (m, p) => shape(m, p, 'circle'),
  },
  {
    ids: ['^GE'],
    summary: 'Graphic Ellipse',
    run: (m, p) => shape(m, p, 'ellipse'),
  },
  {
    ids: ['^GD'],
    summary: 'Graphic Diagonal Line',
    run: (m, p) => {
      const t = p.int(2, 'border thickness', 1, 1, MAX_SHAPE);
      const w = Math.max(t, p.int(0, 'box width', t, 3, MAX_SHAPE));
      const h = Math.max(t, p.int(1, 'box height', t, 3, MAX_SHAPE));
      const white = p.choice(3, 'line color', ['B', 'W'] as const, 'B') === 'W';
      const lean = p.choice(4, 'orientation', ['R', 'L', '/', '\\'] as const, 'R');
      const bmp = diagonal(w, h, t, lean === 'L' || lean === '\\' ? 'L' : 'R');
      if (!bmp) return { text: 'Diagonal line', kind: 'malformed', error: `diagonal ${w}x${h} is too large` };
      m.field.graphic = { kind: 'raster', bitmap: bmp, white, magX: 1, magY: 1 };
      return checked(p, `Diagonal ${w}x${h}, thickness ${t}`);
    },
  },
  {
    ids: ['^GS'],
    summary: 'Graphic Symbol',
    run: (m, p) => {
      const orientation = orientationOf(p, 0, m);
      const h = p.int(1, 'character height', 24, 0, MAX_DOTS);
      const w = p.int(2, 'character width', h, 0, MAX_DOTS);
      m.field.graphic = { kind: 'symbol', orientation, height: h, width: w };
      return checked(p, `Graphic symbol ${h}x${w}`);
    },
  },
  {
    ids: ['^GF'],
    summary: 'Graphic Field',
    run: (m, p, input) => {
      const enc = p.choice(0, 'compression type', ['A', 'B', 'C'] as const, 'A');
      const total = p.int(2, 'graphic field count', 0, 0, 1 << 24);
      const perRow = p.int(3, 'bytes per row', 0, 0, 1 << 16);
      const data = input.binary ?? p.values.slice(4).join(',');
      const r = decodeGraphic(enc, data, total, perRow);
      if (!r.ok) return { text: 'Graphic field', kind: 'malformed', error: r.error };
      m.field.graphic = { kind: 'raster', bitmap: r.bitmap, white: false, magX: 1, magY: 1 };
      const text = `Graphic ${r.bitmap.width}x${r.bitmap.height} dots (${enc === 'B' ? 'binary' : typeof data === 'string' && data.trimStart().startsWith(':') ? data.trimStart().slice(1, 4) : 'hex'})`;
      return r.warning ? { text, kind: 'malformed', error: r.warning } : checked(p, text);
    },
  },
  {
    ids: ['~DG'],
    summary: 'Download Graphics',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'GRF');
      const total = p.int(1, 'total bytes', 0, 0, 1 << 24);
      const perRow = p.int(2, 'bytes per row', 0, 0, 1 << 16);
      const r = decodeGraphic('A', p.values.slice(3).join(','), total, perRow);
      if (!r.ok) return { text: `Download graphic ${name}`, kind: 'malformed', error: r.error };
      m.storeGraphic(name, r.bitmap);
      const text = `Graphic ${name} stored (${r.bitmap.width}x${r.bitmap.height} dots)`;
      return r.warning ? { text, kind: 'malformed', error: r.warning } : checked(p, text);
    },
  },
  {
    ids: ['~DY'],
    summary: 'Download Objects',
    run: (m, p, input) => downloadObject(m, p, input),
  },
  {
    ids: ['^XG'],
    summary: 'Recall Graphic',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'GRF');
      const magX = p.int(1, 'magnification x', 1, 1, 10);
      const magY = p.int(2, 'magnification y', 1, 1, 10);
      m.field.graphic = { kind: 'storedGraphic', name, magX, magY };
      if (!m.memory.graphics.has(name)) return { text: `Recall graphic ${name}`, kind: 'malformed', error: `graphic ${name} is not in printer memory` };
      return checked(p, `Recall graphic ${name}${magX > 1 || magY > 1 ? ` x${magX},${magY}` : ''}`);
    },
  },
  {
    ids: ['^IM'],
    summary: 'Image Move',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'GRF');
      m.field.graphic = { kind: 'storedGraphic', name, magX: 1, magY: 1 };
      if (!m.memory.graphics.has(name)) return { text: `Image move ${name}`, kind: 'malformed', error: `image ${name} is not in printer memory` };
      return ok(`Image ${name}`);
    },
  },
  {
    ids: ['^IL'],
    summary: 'Image Load',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'GRF');
      m.field.origin = { x: m.settings.homeX, y: m.settings.homeY, typeset: false, justification: 0 };
      m.field.graphic = { kind: 'storedGraphic', name, magX: 1, magY: 1 };
      const found = m.memory.graphics.has(name);
      m.finishField();
      if (!found) return { text: `Image load ${name}`, kind: 'malformed', error: `image ${name} is not in printer memory` };
      return ok(`Image ${name} at the label home`);
    },
  },
  {
    ids: ['^HW'],
    summary: 'Host Directory List',
    run: (m, p) => {
      const pattern = objectName(p.raw(0) || 'R:*.*', '*');
      const re = wildcard(pattern);
      const rows: string[] = [];
      for (const [name, g] of m.memory.graphics) if (re.test(name)) rows.push(`* ${name.padEnd(16)}${String(Math.ceil(g.width / 8) * g.height).padStart(8)}`);
      for (const [name, f] of m.memory.forms) if (re.test(name)) rows.push(`* ${name.padEnd(16)}${String(f.sizeInBytes).padStart(8)}`);
      for (const [name, size] of m.memory.objects) if (re.test(name)) rows.push(`* ${name.padEnd(16)}${String(size).padStart(8)}`);
      const free = Math.max(0, m.identity.memoryKb * 1024 - m.usedMemoryBytes());
      m.reply(new TextEncoder().encode(`\u0002\r\n- DIR ${pattern}\r\n${rows.map((r) => `${r}\r\n`).join('')}\r\n-${free} bytes free\r\n\u0003`));
      return ok(`Directory of ${pattern} sent (${rows.length} objects)`);
    },
  },
  {
    ids: ['^ID'],
    summary: 'Object Delete',
    run: (m, p) => {
      const pattern = objectName(p.raw(0) || '*.*', '*');
      const re = wildcard(pattern);
      let n = 0;
      for (const store of [m.memory.graphics, m.memory.forms, m.memory.objects] as Map<string, unknown>[]) {
        for (const key of [...store.keys()]) if (re.test(key)) { store.delete(key); n++; }
      }
      return ok(`Deleted ${n} object${n === 1 ? '' : 's'} matching ${pattern}`);
    },
  },
  {
    ids: ['^EG', '~EG'],
    summary: 'Erase Download Graphics',
    run: (m) => {
      const n = m.memory.graphics.size;
      m.memory.graphics.clear();
      return ok(`Erased ${n} graphic${n === 1 ? '' : 's'}`);
    },
  },
  ...['~DB', '~DE', '~DS', '~DT', '~DU'].map((id): ZplCommand => ({
    ids: [id],
    summary: { '~DB': 'Download Bitmap Font', '~DE': 'Download Encoding', '~DS': 'Download Scalable Font', '~DT': 'Download TrueType Font', '~DU': 'Download Unbounded TrueType Font' }[id]!,
    run: (m, p, input) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'FNT');
      m.memory.objects.set(name, input.params.length);
      return ok(`${name} stored (downloaded fonts print as font 0)`);
    },
  })),
];

function shape(m: ZplMachine, p: Params, kind: 'circle' | 'ellipse'): Outcome {
  let w: number, h: number, t: number, colorAt: number;
  if (kind === 'circle') {
    w = h = p.int(0, 'circle diameter', 3, 3, 4095);
    t = p.int(1, 'border thickness', 1, 1, 4095);
    colorAt = 2;
  } else {
    t = p.int(2, 'border thickness', 1, 1, 4095);
    w = p.int(0, 'ellipse width', t, 3, 4095);
    h = p.int(1, 'ellipse height', t, 3, 4095);
    colorAt = 3;
  }
  const white = p.choice(colorAt, 'line color', ['B', 'W'] as const, 'B') === 'W';
  const bmp = ellipse(w, h, t, false);
  if (!bmp) return { text: kind, kind: 'malformed', error: `${kind} ${w}x${h} is too large` };
  m.field.graphic = { kind: 'raster', bitmap: bmp, white, magX: 1, magY: 1 };
  return checked(p, kind === 'circle' ? `Circle ${w}, thickness ${t}` : `Ellipse ${w}x${h}, thickness ${t}`);
}

/**
 * ~DYd:f,b,x,t,w,data: b is the format (A ASCII hex, B binary, C compressed, P PNG), x the
 * extension (G graphic, P PNG, others stored unread), t total bytes, w bytes per row.
 */
function downloadObject(m: ZplMachine, p: Params, input: CommandInput): Outcome {
  const format = p.choice(1, 'format', ['A', 'B', 'C', 'P'] as const, 'A');
  const ext = (p.raw(2) || 'G').toUpperCase();
  const extension = ext === 'G' || ext === 'GRF' ? 'GRF' : ext === 'P' || ext === 'PNG' ? 'PNG' : ext;
  const name = objectName((p.raw(0) || 'UNKNOWN').replace(/\.[A-Za-z0-9]{1,3}$/, ''), extension);
  const total = p.int(3, 'total bytes', 0, 0, 1 << 24);
  const perRow = p.int(4, 'bytes per row', 0, 0, 1 << 16);
  const data = input.binary ?? p.values.slice(5).join(',');
  if (extension === 'GRF') {
    const r = decodeGraphic(format === 'B' ? 'B' : format === 'C' ? 'C' : 'A', data, total, perRow);
    if (!r.ok) return { text: `Download object ${name}`, kind: 'malformed', error: r.error };
    m.storeGraphic(name, r.bitmap);
    return ok(`Graphic ${name} stored (${r.bitmap.width}x${r.bitmap.height} dots)`);
  }
  if (extension === 'PNG') {
    let bytes: Uint8Array | null = null;
    if (typeof data !== 'string') bytes = data;
    else if (data.trimStart().startsWith(':')) {
      const z = decodeZb64(data.trimStart());
      if (!z.ok) return { text: `Download object ${name}`, kind: 'malformed', error: z.error };
      bytes = z.bytes;
    } else bytes = hexBytes(data);
    const bmp = decodePng(bytes);
    if (!bmp.ok) return { text: `Download object ${name}`, kind: 'malformed', error: bmp.error };
    m.storeGraphic(name, bmp.bitmap);
    return ok(`PNG ${name} stored (${bmp.bitmap.width}x${bmp.bitmap.height} dots)`);
  }
  m.memory.objects.set(name, total);
  return ok(`${name} stored (${total} bytes)`);
}

function hexBytes(s: string): Uint8Array {
  const clean = s.replace(/[^0-9A-Fa-f]/g, '');
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bar codes

const BARCODE_COMMANDS: ZplCommand[] = [
  {
    ids: ['^BY'],
    summary: 'Bar Code Field Default',
    run: (m, p) => {
      const by = m.settings.by;
      by.moduleWidth = p.int(0, 'module width', by.moduleWidth, 1, 10);
      by.ratio = p.num(1, 'wide to narrow ratio', by.ratio, 2, 3);
      by.height = p.int(2, 'bar code height', by.height, 1, MAX_DOTS);
      return checked(p, `Bar code defaults: module ${by.moduleWidth}, ratio ${by.ratio}, height ${by.height}`);
    },
  },
  ...Object.entries(BARCODES).map(([code, b]): ZplCommand => ({
    ids: [`^${code}`],
    summary: `${b.name} Bar Code`,
    run: (m, p) => {
      const spec = b.build(p, { by: m.settings.by, fieldOrientation: m.settings.fieldOrientation, dpi: m.dpi });
      m.field.barcode = spec;
      return checked(p, `${b.name}, orientation ${spec.orientation}${spec.kind === 'linear' ? `, height ${spec.height}` : `, module ${spec.moduleSize}`}`);
    },
  })),
];

// ---------------------------------------------------------------------------------------------
// Label layout and media

const LABEL: ZplCommand[] = [
  {
    ids: ['^LH'],
    summary: 'Label Home',
    run: (m, p) => {
      m.settings.homeX = p.int(0, 'x', 0, 0, MAX_DOTS);
      m.settings.homeY = p.int(1, 'y', 0, 0, MAX_DOTS);
      return checked(p, `Label home ${m.settings.homeX},${m.settings.homeY}`);
    },
  },
  {
    ids: ['^LT'],
    summary: 'Label Top',
    run: (m, p) => {
      m.settings.labelTop = p.int(0, 'label top', 0, -120, 120);
      return checked(p, `Label top ${m.settings.labelTop}`);
    },
  },
  {
    ids: ['^LS'],
    summary: 'Label Shift',
    run: (m, p) => {
      m.settings.labelShift = p.int(0, 'shift left', 0, -9999, 9999);
      return checked(p, `Label shift ${m.settings.labelShift}`);
    },
  },
  {
    ids: ['^LL'],
    summary: 'Label Length',
    run: (m, p) => {
      m.settings.labelLength = p.int(0, 'label length', 1225, 1, MAX_DOTS);
      return checked(p, `Label length ${m.settings.labelLength} dots`);
    },
  },
  {
    ids: ['^PW'],
    summary: 'Print Width',
    run: (m, p) => {
      m.settings.printWidth = p.int(0, 'print width', m.getContext().widthInDots, 2, MAX_DOTS);
      return checked(p, `Print width ${m.settings.printWidth} dots`);
    },
  },
  {
    ids: ['^PO'],
    summary: 'Print Orientation',
    run: (m, p) => {
      m.settings.inverted = p.choice(0, 'orientation', ['N', 'I'] as const, 'N') === 'I';
      return checked(p, m.settings.inverted ? 'Print inverted (180 degrees)' : 'Print normal');
    },
  },
  {
    ids: ['^LR'],
    summary: 'Label Reverse Print',
    run: (m, p) => {
      m.settings.reverseAll = p.yes(0, 'reverse', false);
      return checked(p, m.settings.reverseAll ? 'Every field reversed' : 'Fields printed normally');
    },
  },
  setting(['^MM'], 'Print Mode', (m, p) => {
    m.settings.printMode = p.choice(0, 'mode', ['T', 'P', 'R', 'A', 'C', 'D', 'F', 'L', 'U', 'K'] as const, 'T');
    return `Print mode ${m.settings.printMode}`;
  }),
  setting(['^MN'], 'Media Tracking', (m, p) => {
    m.settings.mediaTracking = p.choice(0, 'media', ['N', 'Y', 'W', 'M', 'A', 'V'] as const, 'Y');
    return `Media tracking ${m.settings.mediaTracking}`;
  }),
  setting(['^MT'], 'Media Type', (m, p) => {
    m.settings.mediaType = p.choice(0, 'media type', ['T', 'D'] as const, 'D');
    return m.settings.mediaType === 'T' ? 'Thermal transfer media' : 'Direct thermal media';
  }),
  setting(['^MD'], 'Media Darkness', (m, p) => {
    m.settings.darkness = Math.max(0, Math.min(30, 10 + p.num(0, 'darkness', 0, -30, 30)));
    return `Darkness ${m.settings.darkness}`;
  }),
  setting(['~SD'], 'Set Darkness', (m, p) => {
    m.settings.darkness = p.int(0, 'darkness', 10, 0, 30);
    return `Darkness ${m.settings.darkness}`;
  }),
  setting(['^PR'], 'Print Rate', (m, p) => {
    const speed = p.raw(0).toUpperCase();
    const named: Record<string, number> = { A: 2, B: 3, C: 4, D: 6, E: 8, F: 10, G: 12, H: 14 };
    m.settings.printSpeed = named[speed] ?? p.int(0, 'print speed', 6, 1, 14);
    return `Print speed ${m.settings.printSpeed} ips`;
  }),
  setting(['^PM'], 'Printing Mirror Image of Label'),
  setting(['^MU'], 'Set Units of Measurement', (_m, p) => {
    const u = p.choice(0, 'units', ['D', 'I', 'M'] as const, 'D');
    if (u !== 'D') p.problems.push('units other than dots (D) are not emulated: values are read as dots');
    return `Units ${u}`;
  }),
  setting(['^JU'], 'Configuration Update'),
  setting(['^JZ'], 'Reprint After Error'),
  setting(['^JM'], 'Set Dots per Millimeter'),
  setting(['^JJ'], 'Set Auxiliary Port'),
  setting(['^JT'], 'Head Test Interval'),
  setting(['^ML'], 'Maximum Label Length'),
  setting(['^MF'], 'Media Feed'),
  setting(['^MP'], 'Mode Protection'),
  setting(['^MW'], 'Modify Head Cold Warning'),
  setting(['^PF'], 'Slew Given Number of Dot Rows'),
  setting(['^PH', '~PH'], 'Slew to Home Position'),
  setting(['^PP', '~PP'], 'Programmable Pause', (m) => {
    m.memory.paused = true;
    return 'Printer paused (until ~PS)';
  }),
  setting(['~PS'], 'Print Start', (m) => {
    m.memory.paused = false;
    return 'Printer resumed (print start)';
  }),
  setting(['~JR'], 'Power On Reset'),
  setting(['^JB', '~JB'], 'Initialize Flash Memory'),
  setting(['~JC'], 'Set Media Sensor Calibration'),
  setting(['~JL'], 'Set Label Length (calibrate)'),
  setting(['~TA'], 'Tear-off Adjust Position'),
  setting(['^KL'], 'Define Language'),
  setting(['^KN'], 'Define Printer Name'),
  setting(['^KP'], 'Define Password'),
  setting(['^SZ'], 'Set ZPL'),
  setting(['^SC'], 'Set Serial Communications'),
  setting(['^SS'], 'Set Media Sensors'),
  setting(['^SE'], 'Select Encoding Table'),
  setting(['^NC'], 'Select the Primary Network Device'),
  setting(['^NI'], 'Network ID Number'),
  setting(['~NC'], 'Network Connect'),
  setting(['~NT'], 'Set Currently Connected Printer Transparent'),
  setting(['^CM'], 'Change Memory Letter Designation'),
  setting(['~RO'], 'Reset Advanced Counter'),
  setting(['~JD'], 'Enable Communications Diagnostics'),
  setting(['~JE'], 'Disable Diagnostics'),
  setting(['~JS'], 'Change Backfeed Sequence'),
  setting(['^XB'], 'Suppress Backfeed'),
  setting(['^MC'], 'Map Clear'),
  setting(['^MI'], 'Set Maintenance Information Message'),
  setting(['^PA'], 'Advanced Text Properties'),
  setting(['^FE'], 'Field Encoding'),
  setting(['^JW'], 'Set Ribbon Tension'),
  setting(['^KD'], 'Select Date and Time Format'),
  setting(['^SO'], 'Set Offset (real-time clock)'),
  setting(['^SQ'], 'Halt ZebraNet Alert'),
  setting(['^SX'], 'Set ZebraNet Alert'),
  setting(['^TO'], 'Transfer Object'),
  setting(['^IS'], 'Image Save (the label is not kept as an image)'),
  setting(['~RV', '^RF', '^RS', '^RW', '^RB', '^RR', '^RT', '^RZ', '^WT', '^HL', '~HL'], 'RFID (no RFID encoder: accepted, nothing encoded)'),
];

// ---------------------------------------------------------------------------------------------
// Host queries and printer control (control commands act at once, even inside a format)

const HOST: ZplCommand[] = [
  {
    ids: ['~HS'],
    summary: 'Host Status Return',
    run: (m) => {
      m.reply(m.hostStatus());
      return ok('Host status sent');
    },
  },
  {
    ids: ['~HI'],
    summary: 'Host Identification',
    run: (m) => {
      m.reply(hostIdentification(m.identity));
      return ok('Identification sent');
    },
  },
  {
    ids: ['~HM'],
    summary: 'Host RAM Status',
    run: (m) => {
      m.reply(hostMemory(m.identity, m.usedMemoryBytes()));
      return ok('Memory status sent');
    },
  },
  {
    ids: ['~HQ'],
    summary: 'Host Query',
    run: (m, p) => {
      const what = p.raw(0).toUpperCase();
      switch (what) {
        case 'ES':
          m.reply(m.extendedStatus());
          return ok('Printer status (errors and warnings) sent');
        case 'HA':
          m.reply(hardwareAddress(m.identity));
          return ok('Hardware address sent');
        case 'SN':
          m.reply(serialNumber(m.identity));
          return ok('Serial number sent');
        default:
          return { text: `Host query ${what}`, kind: 'malformed', error: `~HQ${what} is not emulated (ES, HA and SN are)` };
      }
    },
  },
  {
    ids: ['^HH'],
    summary: 'Configuration Label Return',
    run: (m) => {
      const s = m.settings;
      const ctx = m.getContext();
      m.reply(
        configurationLabel({
          identity: m.identity,
          darkness: s.darkness,
          printWidth: s.printWidth ?? ctx.widthInDots,
          labelLength: s.labelLength ?? ctx.heightInDots ?? 0,
          printMode: s.printMode,
          thermalTransfer: s.mediaType === 'T',
          continuousMedia: s.mediaTracking === 'N',
          formatPrefix: '^',
          controlPrefix: '~',
          delimiter: ',',
          labelTop: s.labelTop,
          leftPosition: s.labelShift,
          speed: s.printSpeed,
        }),
      );
      return ok('Configuration sent');
    },
  },
  {
    ids: ['~JA'],
    summary: 'Cancel All',
    run: (m) => {
      m.cancelAll();
      return ok('Format in progress cancelled');
    },
  },
];

const ALL: ZplCommand[] = [...FORMAT, ...FONTS, ...GRAPHICS, ...BARCODE_COMMANDS, ...LABEL, ...HOST];

const TABLE = new Map<string, ZplCommand>();
for (const c of ALL) {
  for (const id of c.ids) {
    if (TABLE.has(id)) throw new Error(`Two ZPL commands for ${id}`);
    TABLE.set(id, c);
  }
}

/** Prefix changes are handled by the tokenizer; their entries only describe them. */
for (const [code, summary] of [['CC', 'Change Caret'], ['CT', 'Change Tilde'], ['CD', 'Change Delimiter']] as const) {
  const entry: ZplCommand = { ids: [`^${code}`, `~${code}`], summary, run: (_m, _p, input) => ok(`${summary} to '${input.params}'`) };
  TABLE.set(`^${code}`, entry);
  TABLE.set(`~${code}`, entry);
}

export function lookupCommand(prefix: 'format' | 'control', code: string): ZplCommand | undefined {
  return TABLE.get(`${prefix === 'format' ? '^' : '~'}${code}`);
}

/** Every command id (for docs and tests). */
export function commandIds(): string[] {
  return [...TABLE.keys()];
}

