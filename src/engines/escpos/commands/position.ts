/** Line spacing, feeds, tabs, print positions, justification, margins and page mode. */
import { arg, fixed } from '../../core/commands.ts';
import { ESC, GS, ch, type EscPosFamily } from './define.ts';
import { textByByte } from '../descriptions.ts';

/** Texts of the commands a receipt repeats, made once (a repeated command's text is then the same string: descriptions.ts textByByte). */
const JUSTIFICATION_TEXT = { left: 'Justification left', center: 'Justification center', right: 'Justification right' } as const;
const feedDotsText = textByByte((n) => `Print and feed ${n} dots`);
const feedLinesText = textByByte((n) => `Print and feed ${n} lines`);

const signed16 = (b: Uint8Array): number => {
  const d = b[2] + b[3] * 256;
  return d >= 0x8000 ? d - 0x10000 : d;
};

export const POSITION: EscPosFamily = [
  {
    prefix: [ESC, ch('$')], name: 'ESC $', summary: 'Set absolute print position', length: fixed(4),
    run(m, b) {
      const pos = b[2] + b[3] * 256;
      return m.layout.setX(pos) ? { text: `Absolute print position ${pos}` } : { text: `Absolute print position ${pos} outside the print area (ignored)` };
    },
  },
  {
    prefix: [ESC, ch('\\')], name: 'ESC \\', summary: 'Set relative print position', length: fixed(4),
    run(m, b) {
      const d = signed16(b);
      return m.layout.moveX(d) ? { text: `Relative print position ${d}` } : { text: `Relative print position ${d} outside the print area (ignored)` };
    },
  },
  {
    prefix: [ESC, ch('2')], name: 'ESC 2', summary: 'Select default line spacing', length: fixed(2),
    run(m) {
      m.modes.lineSpacing = 30;
      return { text: 'Default line spacing (30 dots)' };
    },
  },
  {
    prefix: [ESC, ch('3')], name: 'ESC 3', summary: 'Set line spacing', length: fixed(3),
    run(m, b) {
      m.modes.lineSpacing = arg(b);
      return { text: `Line spacing ${arg(b)} dots` };
    },
  },
  {
    prefix: [ESC, ch('D')], name: 'ESC D', summary: 'Set horizontal tab positions', header: 12,
    // ESC D n1 ... nk NUL (at most 32 stops)
    length: (b, n) => {
      for (let i = 2; i < n; i++) if (b[i] === 0) return i + 1;
      return n >= 2 + 33 ? n : Math.max(n + 1, 3);
    },
    run(m, b) {
      const stops: number[] = [];
      const cw = m.layout.cellWidth();
      let last = 0;
      let bad = false;
      for (let i = 2; i < b.length && b[i] !== 0; i++) {
        if (b[i] <= last) { bad = true; break; }
        last = b[i];
        stops.push(b[i] * cw);
      }
      if (b[b.length - 1] !== 0 && b.length > 2) bad = true;
      m.modes.tabStops = stops;
      return bad
        ? { text: `Tab stops set (${stops.length}); list not ascending or not terminated`, kind: 'malformed', error: 'tab stop list not ascending or not NUL-terminated' }
        : { text: stops.length ? `Tab stops at columns ${stops.map((s) => s / cw).join(', ')}` : 'Tab stops cleared' };
    },
  },
  {
    prefix: [ESC, ch('J')], name: 'ESC J', summary: 'Print and feed paper', length: fixed(3),
    run(m, b) {
      m.layout.printLine(arg(b));
      return { text: feedDotsText(arg(b)) };
    },
  },
  { prefix: [ESC, ch('K')], name: 'ESC K', summary: 'Print and reverse feed', length: fixed(3), run: (_m, b) => ({ text: `Print and reverse feed ${arg(b)} dots (not emulated)` }) },
  {
    prefix: [ESC, ch('d')], name: 'ESC d', summary: 'Print and feed n lines', length: fixed(3),
    run(m, b) {
      m.layout.printLine(arg(b) * m.modes.lineSpacing);
      return { text: feedLinesText(arg(b)) };
    },
  },
  { prefix: [ESC, ch('e')], name: 'ESC e', summary: 'Print and reverse feed n lines', length: fixed(3), run: (_m, b) => ({ text: `Print and reverse feed ${arg(b)} lines (not emulated)` }) },
  {
    prefix: [ESC, ch('a')], name: 'ESC a', summary: 'Select justification', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const j = n === 0 || n === 48 ? 'left' : n === 1 || n === 49 ? 'center' : n === 2 || n === 50 ? 'right' : null;
      if (!j) return { text: `Justification: invalid ${n}`, kind: 'malformed', error: `invalid justification ${n}` };
      m.modes.justify = j;
      return { text: JUSTIFICATION_TEXT[j] };
    },
  },
  { prefix: [ESC, ch('<')], name: 'ESC <', summary: 'Return home', length: fixed(2), run: () => ({ text: 'Return home (ignored)' }) },
  {
    prefix: [GS, ch('L')], name: 'GS L', summary: 'Set left margin', length: fixed(4),
    run(m, b) {
      const v = b[2] + b[3] * 256;
      if (!m.layout.isLineEmpty) return { text: `Left margin ${v} (ignored: not at the beginning of a line)` };
      m.modes.leftMargin = Math.min(v, m.width - 1);
      return { text: `Left margin ${v} dots` };
    },
  },
  {
    prefix: [GS, ch('W')], name: 'GS W', summary: 'Set print area width', length: fixed(4),
    run(m, b) {
      const v = b[2] + b[3] * 256;
      if (!m.layout.isLineEmpty) return { text: `Print area width ${v} (ignored: not at the beginning of a line)` };
      m.modes.areaWidth = v === 0 ? 1 : v;
      return { text: `Print area width ${v} dots` };
    },
  },
  { prefix: [GS, ch('P')], name: 'GS P', summary: 'Set horizontal and vertical motion units', length: fixed(4), run: (_m, b) => ({ text: `Motion units x=${b[2]} y=${b[3]} (dots are used)` }) },
  { prefix: [GS, ch('T')], name: 'GS T', summary: 'Set print position to the beginning of print line', length: fixed(3), run: () => ({ text: 'Set print position to the beginning of print line' }) },
];

export const PAGE_MODE: EscPosFamily = [
  {
    prefix: [ESC, 0x0c], name: 'ESC FF', summary: 'Print data in page mode', length: fixed(2),
    run(m) {
      if (m.layout.pageMode) {
        m.layout.printPage();
        return { text: 'Print data in page mode' };
      }
      return { text: 'Print data in page mode (ignored in standard mode)' };
    },
  },
  {
    prefix: [ESC, ch('L')], name: 'ESC L', summary: 'Select page mode', length: fixed(2),
    run(m) {
      if (m.layout.pageMode) return { text: 'Select page mode (already in page mode)' };
      m.layout.enterPageMode();
      return { text: 'Select page mode' };
    },
  },
  {
    prefix: [ESC, ch('S')], name: 'ESC S', summary: 'Select standard mode', length: fixed(2),
    run(m) {
      if (!m.layout.pageMode) return { text: 'Select standard mode' };
      m.layout.leavePageMode();
      return { text: 'Select standard mode (page data discarded)' };
    },
  },
  {
    prefix: [ESC, ch('T')], name: 'ESC T', summary: 'Select print direction in page mode', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      if (n > 3 && (n < 48 || n > 51)) return { text: `Print direction: invalid ${n}`, kind: 'malformed', error: `invalid direction ${n}` };
      m.layout.setPageDirection(n & 3);
      return { text: `Page mode print direction ${['left to right', 'bottom to top', 'right to left', 'top to bottom'][n & 3]}` };
    },
  },
  {
    prefix: [ESC, ch('W')], name: 'ESC W', summary: 'Set print area in page mode', length: fixed(10),
    run(m, b) {
      const x = b[2] + b[3] * 256, y = b[4] + b[5] * 256, dx = b[6] + b[7] * 256, dy = b[8] + b[9] * 256;
      if (dx === 0 || dy === 0) return { text: 'Page mode print area: zero size', kind: 'malformed', error: 'zero-sized print area' };
      m.layout.setPageArea(x, y, dx, dy);
      return { text: `Page mode print area x=${x} y=${y} width=${dx} height=${dy}` };
    },
  },
  {
    prefix: [GS, ch('$')], name: 'GS $', summary: 'Set absolute vertical print position in page mode', length: fixed(4),
    run(m, b) {
      const v = b[2] + b[3] * 256;
      if (!m.layout.pageMode) return { text: `Absolute vertical position ${v} (page mode only, ignored)` };
      m.layout.setPageY(v);
      return { text: `Absolute vertical position ${v}` };
    },
  },
  {
    prefix: [GS, ch('\\')], name: 'GS \\', summary: 'Set relative vertical print position in page mode', length: fixed(4),
    run(m, b) {
      const d = signed16(b);
      if (!m.layout.pageMode) return { text: `Relative vertical position ${d} (page mode only, ignored)` };
      m.layout.movePageY(d);
      return { text: `Relative vertical position ${d}` };
    },
  },
];
