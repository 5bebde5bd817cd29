/** StarPRNT page mode (ESC GS P): a page composed in an area and printed at once. */
import { fixed, type Outcome } from '../../core/commands.ts';
import type { StarMachine } from '../machine.ts';
import { ESC, GS, ch, digit, type StarFamily } from '../define.ts';

const P = (n: number): number[] => [ESC, GS, ch('P'), 0x30 + n];
const word = (b: Uint8Array, i: number): number => b[i] + b[i + 1] * 256;

function needPageMode(m: StarMachine, name: string): Outcome | null {
  return m.layout.pageMode ? null : { text: `${name}: ignored in standard mode` };
}

export const PAGE_MODE: StarFamily = [
  {
    bytes: P(0), name: 'ESC GS P 0', summary: 'Select page mode', length: fixed(4),
    run(m) {
      if (m.layout.pageMode) return { text: 'Select page mode: already in page mode' };
      // Valid at the top of a line: what is on the current line prints first.
      if (m.layout.hasPendingData) m.layout.printLine(0);
      m.layout.enterPageMode();
      return { text: 'Select page mode' };
    },
  },
  {
    bytes: P(1), name: 'ESC GS P 1', summary: 'Select standard mode (page data discarded)', length: fixed(4),
    run(m) {
      if (!m.layout.pageMode) return { text: 'Select standard mode' };
      const discarded = m.layout.leavePageMode();
      return { text: discarded > 0 ? `Select standard mode (${discarded} unprinted items of the page discarded)` : 'Select standard mode' };
    },
  },
  {
    bytes: P(2), name: 'ESC GS P 2 n', summary: 'Select print direction in page mode', length: fixed(5),
    run(m, b) {
      const n = digit(b[4]);
      if (n > 3) return { text: `Page direction: invalid ${b[4]}`, kind: 'malformed', error: `ESC GS P 2 ${b[4]}: n must be 0 to 3` };
      m.layout.setPageDirection(n);
      return { text: `Page print direction ${n}` };
    },
  },
  {
    bytes: P(3), name: 'ESC GS P 3 xL xH yL yH dxL dxH dyL dyH', summary: 'Set print region in page mode', length: fixed(12),
    run(m, b) {
      const [x, y, w, h] = [word(b, 4), word(b, 6), word(b, 8), word(b, 10)];
      if (w === 0 || h === 0) return { text: 'Page region: empty', kind: 'malformed', error: 'ESC GS P 3 with zero width or height' };
      m.layout.setPageArea(x, y, w, h);
      return { text: `Page region x ${x}, y ${y}, ${w}x${h} dots` };
    },
  },
  {
    bytes: P(4), name: 'ESC GS P 4 nL nH', summary: 'Absolute horizontal position in page mode', length: fixed(6),
    run(m, b) {
      const skip = needPageMode(m, 'Page horizontal position');
      if (skip) return skip;
      m.layout.setX(word(b, 4));
      return { text: `Page horizontal position ${word(b, 4)} dots` };
    },
  },
  {
    bytes: P(5), name: 'ESC GS P 5 nL nH', summary: 'Absolute vertical position in page mode', length: fixed(6),
    run(m, b) {
      const skip = needPageMode(m, 'Page vertical position');
      if (skip) return skip;
      m.layout.setPageY(word(b, 4));
      return { text: `Page vertical position ${word(b, 4)} dots` };
    },
  },
  {
    bytes: P(6), name: 'ESC GS P 6', summary: 'Print the page (stay in page mode)', length: fixed(4),
    run(m) {
      const skip = needPageMode(m, 'Print page');
      if (skip) return skip;
      m.layout.printPage();
      return { text: 'Print the page' };
    },
  },
  {
    bytes: P(7), name: 'ESC GS P 7', summary: 'Print the page and return to standard mode', length: fixed(4),
    run(m) {
      const skip = needPageMode(m, 'Print page');
      if (skip) return skip;
      m.layout.printPage();
      m.layout.leavePageMode();
      return { text: 'Print the page and return to standard mode' };
    },
  },
];
