/** Drawing: text (A), bar codes (B), lines (LO, LW, LE, LS) and boxes (X). */
import { linearType } from '../barcodes.ts';
import { display } from '../display.ts';
import { EPL_FONTS, validHorizontalMultiplier, validVerticalMultiplier } from '../fonts.ts';
import { int, splitParams, splitWithData, type DataPart } from '../params.ts';
import type { Op, OpSource, Rot } from '../state.ts';
import { draw, inRange, refuse, type EplFamily, type Refusal } from './define.ts';

export const rotOf = (n: number): Rot | null => (n === 0 || n === 1 || n === 2 || n === 3 ? n : null);


export function describeData(parts: DataPart[]): string {
  return parts
    .map((p) => (p.kind === 'literal' ? `"${display(p.text)}"` : p.kind === 'variable' ? `V${String(p.index).padStart(2, '0')}` : p.kind === 'counter' ? `C${p.index}` : p.kind === 'time' ? 'TT' : 'TD'))
    .join('');
}

export function parseText(rest: string, src: OpSource): { op: Op; description: string } | Refusal {
  const s = splitWithData(rest, 7);
  if (s.error) return refuse(s.error);
  if (s.params.length < 7 || !s.data) return refuse('expected x,y,rotation,font,h-mult,v-mult,N|R,"DATA"');
  const [x, y, r] = [int(s.params[0]), int(s.params[1]), int(s.params[2])];
  if (!inRange(x) || !inRange(y)) return refuse('position out of range');
  const rot = rotOf(r);
  if (rot === null) return refuse(`rotation must be 0 to 3 (got ${s.params[2]})`);
  const fontId = int(s.params[3]);
  const font = EPL_FONTS[fontId];
  if (!font) return refuse(`font ${s.params[3]} is not a resident font (1-5); soft fonts are not emulated`);
  const h = int(s.params[4]), v = int(s.params[5]);
  if (!validHorizontalMultiplier(h)) return refuse(`horizontal multiplier must be 1-6 or 8 (got ${s.params[4]})`);
  if (!validVerticalMultiplier(v)) return refuse(`vertical multiplier must be 1-9 (got ${s.params[5]})`);
  const nr = s.params[6].toUpperCase();
  if (nr !== 'N' && nr !== 'R') return refuse(`expected N (normal) or R (reverse), got "${s.params[6]}"`);
  const rotText = rot === 0 ? '' : `, rotated ${rot * 90} degrees`;
  const mult = h !== 1 || v !== 1 ? `, x${h}/x${v}` : '';
  return {
    op: { kind: 'text', x, y, rot, font, hMult: h, vMult: v, reverse: nr === 'R', data: s.data, src },
    description: `Text, font ${fontId} at (${x},${y})${rotText}${mult}${nr === 'R' ? ', reverse' : ''}: ${describeData(s.data)}`,
  };
}

export function parseBarcode(rest: string, src: OpSource): { op: Op; description: string } | Refusal {
  const s = splitWithData(rest, 8);
  if (s.error) return refuse(s.error);
  if (s.params.length < 8 || !s.data) return refuse('expected x,y,rotation,type,narrow,wide,height,B|N,"DATA"');
  const x = int(s.params[0]), y = int(s.params[1]);
  if (!inRange(x) || !inRange(y)) return refuse('position out of range');
  const rot = rotOf(int(s.params[2]));
  if (rot === null) return refuse(`rotation must be 0 to 3 (got ${s.params[2]})`);
  const type = linearType(s.params[3]);
  if (!type) return refuse(`unknown bar code type "${s.params[3]}"`);
  const narrow = int(s.params[4]), wide = int(s.params[5]), height = int(s.params[6]);
  if (!inRange(narrow, 1, 30)) return refuse(`narrow bar width must be 1-30 dots (got ${s.params[4]})`);
  if (!inRange(wide, 1, 60)) return refuse(`wide bar width must be 1-60 dots (got ${s.params[5]})`);
  if (!inRange(height, 1, 9999)) return refuse(`bar code height must be 1-9999 dots (got ${s.params[6]})`);
  const hr = s.params[7].toUpperCase();
  if (hr !== 'B' && hr !== 'N') return refuse(`human readable must be B or N (got "${s.params[7]}")`);
  return {
    op: { kind: 'barcode', x, y, rot, type, narrow, wide, height, humanReadable: hr === 'B', data: s.data, src },
    description: `Bar code ${type.name} at (${x},${y})${rot ? `, rotated ${rot * 90} degrees` : ''}, narrow ${narrow}, wide ${wide}, height ${height}${hr === 'B' ? ', human readable' : ''}: ${describeData(s.data)}`,
  };
}


const fill = (name: 'LO' | 'LW' | 'LE', summary: string, mode: 'black' | 'white' | 'xor') =>
  draw({
    name, summary, group: 'draw', takesParameters: true,
    parse(rest, _t, src) {
      const p = splitParams(rest).map(int);
      if (p.length !== 4 || !p.every((n) => inRange(n))) return refuse('expected x,y,width,height in dots');
      return { op: { kind: 'fill', x: p[0], y: p[1], w: p[2], h: p[3], mode, src }, description: `${summary} at (${p[0]},${p[1]}), ${p[2]}x${p[3]} dots` };
    },
  });

/** x1,y1,thickness,x2,y2 of LS and X. */
function corners(rest: string): number[] | Refusal {
  const p = splitParams(rest).map(int);
  if (p.length !== 5 || !p.every((n) => inRange(n))) return refuse('expected x1,y1,thickness,x2,y2 in dots');
  if (p[2] < 1) return refuse('thickness must be at least 1 dot');
  return p;
}

export const DRAWING: EplFamily = [
  draw({ name: 'A', summary: 'ASCII text', group: 'draw', takesParameters: true, parse: (rest, _t, src) => parseText(rest, src) }),
  draw({ name: 'B', summary: 'Bar code', group: 'draw', takesParameters: true, parse: (rest, _t, src) => parseBarcode(rest, src) }),
  fill('LO', 'Line draw black', 'black'),
  fill('LW', 'Line draw white (erase)', 'white'),
  fill('LE', 'Line draw exclusive OR', 'xor'),
  draw({
    name: 'LS', summary: 'Line draw diagonal', group: 'draw', takesParameters: true,
    parse(rest, _t, src) {
      const p = corners(rest);
      if (!Array.isArray(p)) return p;
      return { op: { kind: 'diagonal', x1: p[0], y1: p[1], t: p[2], x2: p[3], y2: p[4], src }, description: `Diagonal line (${p[0]},${p[1]}) to (${p[3]},${p[4]}), ${p[2]} dots thick` };
    },
  }),
  draw({
    name: 'X', summary: 'Box draw', group: 'draw', takesParameters: true,
    parse(rest, _t, src) {
      const p = corners(rest);
      if (!Array.isArray(p)) return p;
      return { op: { kind: 'box', x1: p[0], y1: p[1], t: p[2], x2: p[3], y2: p[4], src }, description: `Box (${p[0]},${p[1]}) to (${p[3]},${p[4]}), lines ${p[2]} dots thick` };
    },
  }),
];
