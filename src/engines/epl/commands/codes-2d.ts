/** 2D bar codes (b): QR Code, PDF417, MaxiCode, Data Matrix and Aztec with their EPL options. */
import { int, splitWithData } from '../params.ts';
import type { Code2DParams, Op, OpSource } from '../state.ts';
import { draw, inRange, refuse, type EplFamily, type Refusal } from './define.ts';
import { describeData, rotOf } from './drawing.ts';

const SYMBOLOGY_2D: Record<string, { sym: Code2DSym; name: string }> = {
  Q: { sym: 'qrcode', name: 'QR Code' },
  P: { sym: 'pdf417', name: 'PDF417' },
  M: { sym: 'maxicode', name: 'MaxiCode' },
  D: { sym: 'datamatrix', name: 'Data Matrix' },
  A: { sym: 'azteccode', name: 'Aztec' },
};
type Code2DSym = 'qrcode' | 'pdf417' | 'maxicode' | 'datamatrix' | 'azteccode';

function parse2D(rest: string, src: OpSource): { op: Op; description: string } | Refusal {
  const q = rest.indexOf('"');
  if (q < 0) return refuse('expected x,y,type,[options],"DATA"');
  const head = rest.slice(0, q);
  const dataParsed = splitWithData(rest.slice(q), 0);
  if (dataParsed.error) return refuse(dataParsed.error);
  const data = dataParsed.data ?? [];
  const parts = head.split(',').map((x) => x.trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 3) return refuse('expected x,y,type,[options],"DATA"');
  const x = int(parts[0]), y = int(parts[1]);
  if (!inRange(x) || !inRange(y)) return refuse('position out of range');
  const t = SYMBOLOGY_2D[parts[2]];
  if (!t) return refuse(`unknown 2D symbology "${parts[2]}" (Q, P, M, D or A)`);
  const opts = parts.slice(3);
  const p: Code2DParams = { moduleSize: 3, options: {} };
  const fail = (why: string): Refusal => refuse(`${t.name}: ${why}`);
  switch (t.sym) {
    case 'qrcode': {
      // Options may be run together without commas: m2s3eMiA...
      const joined = opts.join('');
      const re = /([msei])([0-9A-Za-z]+?)(?=[msei]|$)|D(\d{2})(\d{2})([0-9A-Fa-f]{2})/gy;
      let m: RegExpExecArray | null;
      let pos = 0;
      while (pos < joined.length && (m = re.exec(joined))) {
        pos = re.lastIndex;
        if (m[3]) continue;
        const [, k, v] = m;
        if (k === 'm') {
          if (v !== '1' && v !== '2') return fail('model must be 1 or 2');
        } else if (k === 's') {
          const n = int(v);
          if (!inRange(n, 1, 99)) return fail('scale must be 1-99');
          p.moduleSize = n;
        } else if (k === 'e') {
          const lvl = v.toUpperCase();
          if (!['L', 'M', 'Q', 'H'].includes(lvl)) return fail('error correction must be L, M, Q or H');
          p.options.eclevel = lvl;
        }
      }
      if (pos < joined.length) return fail(`bad option "${joined.slice(pos)}"`);
      break;
    }
    case 'pdf417': {
      const w = int(opts[0]), h = int(opts[1]);
      if (!inRange(w, 1) || !inRange(h, 1)) return fail('expected maximum width and height in dots');
      p.maxWidth = w;
      p.maxHeight = h;
      p.center = true;
      let module: number | undefined;
      for (const o of opts.slice(2)) {
        const m = /^([a-z])(\d+)$/.exec(o);
        if (!m) {
          if (/^p\d+/.test(o) || o === '') continue;
          return fail(`bad option "${o}"`);
        }
        const n = Number(m[2]);
        switch (m[1]) {
          case 's':
            if (n > 8) return fail('security level must be 0-8');
            p.options.eclevel = n;
            break;
          case 'c':
            if (n === 1) p.options.compact = false;
            break;
          case 'f':
            p.center = n !== 0;
            break;
          case 'x':
            if (n < 2 || n > 9) return fail('module width must be 2-9');
            module = n;
            break;
          case 'y':
            if (n < 4 || n > 99) return fail('bar height must be 4-99');
            p.rowHeight = n;
            break;
          case 'r':
            if (n >= 3 && n <= 90) p.options.rows = n;
            break;
          case 'l':
            if (n >= 1 && n <= 30) p.options.columns = n;
            break;
          case 't':
            break;
          case 'o': {
            const r = rotOf(n);
            if (r === null) return fail('rotation must be 0-3');
            p.rotation = r;
            break;
          }
          default:
            return fail(`bad option "${o}"`);
        }
      }
      if (module !== undefined) {
        p.moduleSize = module;
        p.rowHeight ??= 4 * module;
      } else p.options.__autoModule = true;
      break;
    }
    case 'maxicode': {
      p.moduleSize = 7;
      for (const o of opts) {
        const m = /^m(\d)$/.exec(o);
        if (m) {
          const mode = Number(m[1]);
          if (![2, 3, 4, 6].includes(mode)) return fail('mode must be m2, m3, m4 or m6');
          p.maxicodeMode = mode;
        } else if (/^\d,\d$/.test(o) || /^\d$/.test(o)) {
          // Structured append numbering: accepted, one symbol printed.
        } else return fail(`bad option "${o}"`);
      }
      break;
    }
    case 'datamatrix': {
      p.moduleSize = 5;
      for (const o of opts.join(',').split(/,|(?=[crhv])/).filter(Boolean)) {
        const m = /^([crhv])(\d*)$/.exec(o.trim());
        if (!m) return fail(`bad option "${o}"`);
        const n = Number(m[2]);
        if (m[1] === 'h') {
          if (!(n >= 1 && n <= 40)) return fail('module size must be 1-40');
          p.moduleSize = n;
        } else if (m[1] === 'c') p.options.columns = n;
        else if (m[1] === 'r') p.options.rows = n;
        else if (m[1] === 'v') p.reverse = true;
      }
      break;
    }
    case 'azteccode': {
      p.moduleSize = 3;
      for (const o of opts.join(',').split(/,|(?=[defmr])/).filter(Boolean)) {
        const m = /^([defmr])(\d*)$/.exec(o.trim());
        if (!m) return fail(`bad option "${o}"`);
        const n = Number(m[2]);
        if (m[1] === 'd') {
          if (!(n >= 1 && n <= 55)) return fail('scaling must be 1-55');
          p.moduleSize = n;
        } else if (m[1] === 'e') {
          if (n >= 1 && n <= 99) p.options.eclevel = n;
          else if (n >= 101 && n <= 104) {
            p.options.format = 'compact';
            p.options.layers = n - 100;
          } else if (n >= 201 && n <= 232) {
            p.options.format = 'full';
            p.options.layers = n - 200;
          } else if (n === 300) p.options.format = 'rune';
          else if (n !== 0) return fail(`bad error correction/layers "e${m[2]}"`);
        } else if (m[1] === 'r') p.reverse = true;
      }
      break;
    }
  }
  return {
    op: { kind: 'code2d', x, y, symbology: t.sym, params: p, data, src },
    description: `2D bar code ${t.name} at (${x},${y}): ${describeData(data)}`,
  };
}


export const CODES_2D: EplFamily = [
  draw({ name: 'b', summary: '2D bar code', group: 'draw', takesParameters: true, parse: (rest, _t, src) => parse2D(rest, src) }),
];
