/** Line spacing, feeds, margins, tabs, alignment and horizontal position. */
import { NUL_TERMINATED, fixed, type Outcome } from '../../core/commands.ts';
import type { StarMachine } from '../machine.ts';
import { ESC, GS, STAR_LINE_SPACING, STAR_LINE_SPACING_3MM, ch, digit, type StarFamily } from '../define.ts';

/** Star feeds are given in millimetres: 8 dots per mm on the 203 dpi models. */
const DOTS_PER_MM = 8;

/** Width of one character of the current font (margins and tabs are set in characters). */
function charWidth(m: StarMachine): number {
  return (m.fonts[m.fontIndex()]?.width ?? 12) + m.modes.rightSpacing;
}

function feed(m: StarMachine, dots: number, text: string): Outcome {
  m.layout.printLine(dots);
  return { text };
}

/** Tab positions `ESC D n1 n2 ... NUL` in characters, ascending. */
function tabStops(m: StarMachine, b: Uint8Array): number[] {
  const stops: number[] = [];
  const cw = charWidth(m);
  for (let i = 2; i < b.length - 1; i++) {
    const pos = b[i] * cw;
    if (stops.length > 0 && pos <= stops[stops.length - 1]) break;
    stops.push(pos);
  }
  return stops;
}

export const POSITION: StarFamily = [
  { bytes: [ESC, ch('0')], name: 'ESC 0', summary: 'Set line feed to 3 mm', length: fixed(2), run: (m) => ((m.modes.lineSpacing = STAR_LINE_SPACING_3MM), { text: 'Line feed 3 mm' }) },
  {
    bytes: [ESC, ch('z')], name: 'ESC z n', summary: 'Set line feed to 4 mm (n = 1) or 3 mm (n = 0)', length: fixed(3),
    run(m, b) {
      const n = digit(b[2]);
      if (n > 1) return { text: `Line feed: invalid ${b[2]}`, kind: 'malformed', error: `ESC z ${b[2]}: n must be 0 or 1` };
      m.modes.lineSpacing = n === 1 ? STAR_LINE_SPACING : STAR_LINE_SPACING_3MM;
      return { text: `Line feed ${n === 1 ? 4 : 3} mm` };
    },
  },
  {
    bytes: [ESC, ch('a')], name: 'ESC a n', summary: 'Feed paper n lines', length: fixed(3),
    run: (m, b) => feed(m, b[2] * m.modes.lineSpacing, `Feed ${b[2]} lines`),
  },
  {
    bytes: [ESC, ch('J')], name: 'ESC J n', summary: 'Feed paper n/4 mm', length: fixed(3),
    run: (m, b) => feed(m, Math.round((b[2] * DOTS_PER_MM) / 4), `Feed ${b[2] / 4} mm`),
  },
  {
    bytes: [ESC, ch('I')], name: 'ESC I n', summary: 'Feed paper n/8 mm', length: fixed(3),
    run: (m, b) => feed(m, Math.round((b[2] * DOTS_PER_MM) / 8), `Feed ${b[2] / 8} mm`),
  },
  {
    bytes: [ESC, ch('l')], name: 'ESC l n', summary: 'Set left margin (characters)', length: fixed(3),
    run(m, b) {
      const left = b[2] * charWidth(m);
      if (left >= m.width) return { text: `Left margin ${b[2]}: beyond the paper`, kind: 'malformed', error: `left margin ${b[2]} characters is beyond the print width` };
      m.modes.leftMargin = left;
      return { text: `Left margin ${b[2]} characters (${left} dots)` };
    },
  },
  {
    bytes: [ESC, ch('Q')], name: 'ESC Q n', summary: 'Set right margin (characters from the left edge)', length: fixed(3),
    run(m, b) {
      // Star counts the right margin as the column where lines end, from the left edge.
      const right = b[2] * charWidth(m);
      if (b[2] === 0) {
        m.modes.areaWidth = null;
        return { text: 'Right margin: none (full width)' };
      }
      const width = Math.min(m.width, right) - m.modes.leftMargin;
      if (width <= 0) return { text: `Right margin ${b[2]}: left of the left margin`, kind: 'malformed', error: `right margin ${b[2]} is left of the left margin` };
      m.modes.areaWidth = width;
      return { text: `Right margin at character ${b[2]} (print width ${width} dots)` };
    },
  },
  {
    bytes: [ESC, ch('D')], name: 'ESC D n1 ... NUL', summary: 'Set horizontal tab positions', length: () => NUL_TERMINATED, header: 34,
    run(m, b) {
      m.modes.tabStops = tabStops(m, b);
      return { text: m.modes.tabStops.length ? `Horizontal tabs at ${Array.from(b.subarray(2, b.length - 1)).join(', ')}` : 'Horizontal tabs cleared' };
    },
  },
  {
    bytes: [ESC, ch('B')], name: 'ESC B n1 ... NUL', summary: 'Set vertical tab positions', length: () => NUL_TERMINATED, header: 34,
    run: (_m, b) => ({ text: `Vertical tabs at lines ${Array.from(b.subarray(2, b.length - 1)).join(', ') || '(cleared)'}` }),
  },
  {
    bytes: [ESC, GS, ch('a')], name: 'ESC GS a n', summary: 'Position alignment', length: fixed(4),
    run(m, b) {
      const n = digit(b[3]);
      const j = n === 0 ? 'left' : n === 1 ? 'center' : n === 2 ? 'right' : null;
      if (!j) return { text: `Alignment: invalid ${b[3]}`, kind: 'malformed', error: `ESC GS a ${b[3]}: n must be 0, 1 or 2` };
      m.modes.justify = j;
      return { text: `Align ${j}` };
    },
  },
  {
    bytes: [ESC, GS, ch('A')], name: 'ESC GS A n1 n2', summary: 'Absolute position', length: fixed(5),
    run(m, b) {
      const x = b[3] + b[4] * 256;
      return m.layout.setX(x) ? { text: `Absolute position ${x} dots` } : { text: `Absolute position ${x}: outside the print area (ignored)` };
    },
  },
  {
    bytes: [ESC, GS, ch('R')], name: 'ESC GS R n1 n2', summary: 'Relative position', length: fixed(5),
    run(m, b) {
      let dx = b[3] + b[4] * 256;
      if (dx >= 0x8000) dx -= 0x10000;
      return m.layout.moveX(dx) ? { text: `Relative position ${dx} dots` } : { text: `Relative position ${dx}: outside the print area (ignored)` };
    },
  },
];
