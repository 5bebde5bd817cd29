/** Graphics and stored objects (^GB … ^GF, ~DG, ~DY, ^XG, ^IM, ^IL, ^ID, ^EG, ^HW). */
import type { DownloadedFontKind } from '../font-ids.ts';
import { decodeGraphic, decodeZb64 } from '../graphic-data.ts';
import type { ZplMachine } from '../machine.ts';
import { objectName, wildcard, type Params } from '../params.ts';
import { decodePng } from '../png-objects.ts';
import { diagonal, ellipse, MAX_SHAPE } from '../shapes.ts';
import { checked, MAX_DOTS, ok, orientationOf, type CommandInput, type Outcome, type ZplCommand } from './types.ts';

export const GRAPHIC_COMMANDS: ZplCommand[] = [
  {
    ids: ['^GB'],
    summary: 'Graphic Box',
    run: (m, p) => {
      // A side below the thickness (0 included) becomes the thickness: ^GB203,0,20 is a line.
      const t = p.int(2, 'border thickness', 1, 1, MAX_DOTS);
      const w = Math.max(t, p.int(0, 'box width', t, 0, MAX_DOTS));
      const h = Math.max(t, p.int(1, 'box height', t, 0, MAX_DOTS));
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
      const full = m.storeGraphic(name, r.bitmap);
      if (full) return { text: `Download graphic ${name}`, kind: 'malformed', error: full };
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
      const free = Math.max(0, m.capacityBytes - m.usedMemoryBytes());
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
  ...(['~DB', '~DE', '~DS', '~DT', '~DU'] as const).map((id): ZplCommand => ({
    ids: [id],
    summary: { '~DB': 'Download Bitmap Font', '~DE': 'Download Encoding', '~DS': 'Download Scalable Font', '~DT': 'Download TrueType Font', '~DU': 'Download Unbounded TrueType Font' }[id]!,
    run: (m, p, input) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'FNT');
      const full = m.storeObject(name, input.params.length, DOWNLOADED_FONT_KINDS[id]);
      if (full) return { text: `Download ${name}`, kind: 'malformed', error: full };
      return ok(`${name} stored (downloaded fonts print as font 0)`);
    },
  })),
];

/** What each font download command stores (~DE stores an encoding table, not a font). */
const DOWNLOADED_FONT_KINDS: Record<'~DB' | '~DE' | '~DS' | '~DT' | '~DU', DownloadedFontKind | undefined> = { '~DB': 'bitmap', '~DE': undefined, '~DS': 'scalable', '~DT': 'truetype', '~DU': 'truetype' };

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
  const extension = ext === 'G' || ext === 'GRF' ? 'GRF' : ext === 'P' || ext === 'PNG' ? 'PNG' : ext === 'T' ? 'TTF' : ext === 'E' ? 'TTE' : ext;
  const name = objectName((p.raw(0) || 'UNKNOWN').replace(/\.[A-Za-z0-9]{1,3}$/, ''), extension);
  const total = p.int(3, 'total bytes', 0, 0, 1 << 24);
  const perRow = p.int(4, 'bytes per row', 0, 0, 1 << 16);
  const data = input.binary ?? p.values.slice(5).join(',');
  // Format P is PNG data whatever the stored extension (the guide: "ASCII hexadecimal or ZB64").
  if (extension === 'GRF' && format !== 'P') {
    const r = decodeGraphic(format === 'B' ? 'B' : format === 'C' ? 'C' : 'A', data, total, perRow);
    if (!r.ok) return { text: `Download object ${name}`, kind: 'malformed', error: r.error };
    const full = m.storeGraphic(name, r.bitmap);
    if (full) return { text: `Download object ${name}`, kind: 'malformed', error: full };
    return ok(`Graphic ${name} stored (${r.bitmap.width}x${r.bitmap.height} dots)`);
  }
  if (extension === 'PNG' || extension === 'GRF') {
    let bytes: Uint8Array | null = null;
    if (typeof data !== 'string') bytes = data;
    else if (data.trimStart().startsWith(':')) {
      const z = decodeZb64(data.trimStart());
      if (!z.ok) return { text: `Download object ${name}`, kind: 'malformed', error: z.error };
      bytes = z.bytes;
    } else bytes = hexBytes(data);
    const bmp = decodePng(bytes);
    if (!bmp.ok) return { text: `Download object ${name}`, kind: 'malformed', error: bmp.error };
    const full = m.storeGraphic(name, bmp.bitmap);
    if (full) return { text: `Download object ${name}`, kind: 'malformed', error: full };
    return ok(`PNG ${name} stored (${bmp.bitmap.width}x${bmp.bitmap.height} dots)`);
  }
  const full = m.storeObject(name, total, ['TTF', 'TTE', 'OTF'].includes(extension) ? 'truetype' : undefined);
  if (full) return { text: `Download object ${name}`, kind: 'malformed', error: full };
  return ok(`${name} stored (${total} bytes)`);
}

function hexBytes(s: string): Uint8Array {
  const clean = s.replace(/[^0-9A-Fa-f]/g, '');
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}
