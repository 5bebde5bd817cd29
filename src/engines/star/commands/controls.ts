/** Single-byte controls: feeds, tabs, cancel, drawers, double width, upside-down, ETB, real-time status. */
import { fixed, type CommandEntry } from '../../core/commands.ts';
import { hexByte } from '../../core/hex.ts';
import type { StarMachine } from '../machine.ts';
import { starEnq, starEot } from '../status.ts';
import { ESC, type StarFamily } from '../define.ts';

function drawer(m: StarMachine, n: 1 | 2, name: string): { text: string } {
  m.emit({ type: 'drawerKick', drawer: n });
  return { text: `${name}: drive peripheral device ${n} (drawer ${n})` };
}

export const CONTROLS: StarFamily = [
  {
    bytes: [0x0a], name: 'LF', summary: 'Line feed', length: fixed(1),
    run(m) {
      m.layout.printLine(m.modes.lineSpacing);
      return { text: 'Print and line feed' };
    },
  },
  // Star's default memory switch setting ignores CR (receipt-printer-encoder ends lines with LF CR).
  { bytes: [0x0d], name: 'CR', summary: 'Carriage return', length: fixed(1), run: () => ({ text: 'Carriage return (ignored, as the default memory switch sets it)' }) },
  {
    bytes: [0x0c], name: 'FF', summary: 'Form feed', length: fixed(1),
    run(m) {
      if (m.layout.pageMode) {
        m.layout.printPage();
        m.layout.leavePageMode();
        return { text: 'Print the page and return to standard mode' };
      }
      m.layout.printLine(m.modes.lineSpacing);
      return { text: 'Form feed' };
    },
  },
  {
    bytes: [0x09], name: 'HT', summary: 'Horizontal tab', length: fixed(1),
    run(m) {
      m.layout.tab();
      return { text: 'Horizontal tab' };
    },
  },
  {
    bytes: [0x0b], name: 'VT', summary: 'Vertical tab', length: fixed(1),
    run(m) {
      m.layout.printLine(m.modes.lineSpacing);
      return { text: 'Vertical tab (no vertical tab positions: one line feed)' };
    },
  },
  {
    bytes: [0x18], name: 'CAN', summary: 'Cancel print data', length: fixed(1),
    run(m) {
      if (m.layout.pageMode) {
        m.layout.cancelPage();
        return { text: 'Cancel the page data' };
      }
      const n = m.layout.clearLine();
      return { text: n > 0 ? `Cancel print data (${n} unprinted characters discarded)` : 'Cancel print data' };
    },
  },
  { bytes: [0x07], name: 'BEL', summary: 'Drive peripheral device 1', length: fixed(1), run: (m) => drawer(m, 1, 'BEL') },
  { bytes: [0x1c], name: 'FS', summary: 'Drive peripheral device 1', length: fixed(1), run: (m) => drawer(m, 1, 'FS') },
  { bytes: [0x1a], name: 'SUB', summary: 'Drive peripheral device 2', length: fixed(1), run: (m) => drawer(m, 2, 'SUB') },
  { bytes: [0x19], name: 'EM', summary: 'Drive peripheral device 2', length: fixed(1), run: (m) => drawer(m, 2, 'EM') },
  {
    bytes: [0x0e], name: 'SO', summary: 'Set double-wide characters', length: fixed(1),
    run(m) {
      m.modes.scaleX = 2;
      m.bumpStyle();
      return { text: 'Double width on' };
    },
  },
  {
    bytes: [0x14], name: 'DC4', summary: 'Cancel double-wide characters', length: fixed(1),
    run(m) {
      m.modes.scaleX = 1;
      m.bumpStyle();
      return { text: 'Double width off' };
    },
  },
  {
    bytes: [0x0f], name: 'SI', summary: 'Specify upside-down printing', length: fixed(1),
    run(m) {
      m.modes.upsideDown = true;
      m.bumpStyle();
      return { text: 'Upside-down printing on' };
    },
  },
  {
    bytes: [0x12], name: 'DC2', summary: 'Cancel upside-down printing', length: fixed(1),
    run(m) {
      m.modes.upsideDown = false;
      m.bumpStyle();
      return { text: 'Upside-down printing off' };
    },
  },
  {
    bytes: [0x17], name: 'ETB', summary: 'Increment the ETB counter', length: fixed(1),
    run(m) {
      m.etbCounter = (m.etbCounter + 1) & 0x1f;
      m.etbExecuted = true;
      if (m.asbEnabled) m.sendAsb();
      return { text: `ETB: counter ${m.etbCounter}` };
    },
  },
  {
    bytes: [0x05], name: 'ENQ', summary: 'Inquire ENQ status', length: fixed(1),
    run(m) {
      const v = starEnq(m.statusInput());
      m.reply(Uint8Array.of(v));
      return { text: `ENQ status 0x${hexByte(v)}` };
    },
  },
  {
    bytes: [0x04], name: 'EOT', summary: 'Inquire EOT status', length: fixed(1),
    run(m) {
      const v = starEot(m.statusInput());
      m.reply(Uint8Array.of(v));
      return { text: `EOT status 0x${hexByte(v)}` };
    },
  },
];

/** A control byte no Star command starts with. */
export const UNKNOWN_CONTROL: CommandEntry<StarMachine> = {
  prefix: [0x00], name: 'unknown', summary: 'Unknown control byte', length: fixed(1),
  run: (_m, b) => ({ text: `Unknown control byte 0x${hexByte(b[0])}`, kind: 'unknown', error: `unknown control byte 0x${hexByte(b[0])}` }),
};

/** ESC followed by a byte no Star command uses. */
export const UNKNOWN_ESC: CommandEntry<StarMachine> = {
  prefix: [ESC, 0x00], name: 'unknown', summary: 'Unknown command', length: fixed(2),
  run: (_m, b) => ({ text: `Unknown command ESC 0x${hexByte(b[1])}`, kind: 'unknown', error: `no Star command ESC 0x${hexByte(b[1])}` }),
};
