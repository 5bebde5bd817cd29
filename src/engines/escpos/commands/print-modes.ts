/** Character styles: fonts, emphasis, underline, italic, size, reverse, rotation. */
import { arg, fixed } from '../../core/commands.ts';
import { fontName, onOff, printModeText, textByByte } from '../descriptions.ts';
import { ESC, GS, ch, type EscPosFamily } from './define.ts';

// Texts of the commands a receipt repeats, made once per parameter (descriptions.ts textByByte).
const printModeTextOf = textByByte((n) => `Print mode: ${printModeText(n)}`);
const underlineText = textByByte((v) => (v === 0 ? 'Underline off' : `Underline on (${v} dot${v > 1 ? 's' : ''})`));
const italicText = textByByte((v) => `Italic ${onOff(v)}`);
const emphasizedText = textByByte((v) => `Emphasized ${onOff(v)}`);
const doubleStrikeText = textByByte((v) => `Double-strike ${onOff(v)}`);
const fontText = textByByte((n) => `Character font: ${fontName(n)}`);
const upsideDownText = textByByte((v) => `Upside-down printing ${onOff(v)}`);
const sizeText = textByByte((n) => `Character size: width x${((n >> 4) & 7) + 1}, height x${(n & 7) + 1}`);
const reverseText = textByByte((v) => `White/black reverse ${onOff(v)}`);
const smoothingText = textByByte((v) => `Smoothing ${onOff(v)}`);

export const PRINT_MODES: EscPosFamily = [
  {
    prefix: [ESC, ch(' ')], name: 'ESC SP', summary: 'Set right-side character spacing', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.modes.rightSpacing = n;
      m.bumpStyle();
      return { text: `Right-side character spacing ${n} dots` };
    },
  },
  {
    prefix: [ESC, ch('!')], name: 'ESC !', summary: 'Select print mode(s)', length: fixed(3),
    run(m, b) {
      const n = arg(b), s = m.modes;
      s.font = n & 1;
      s.bold = (n & 0x08) !== 0;
      s.scaleY = n & 0x10 ? 2 : 1;
      s.scaleX = n & 0x20 ? 2 : 1;
      s.underline = n & 0x80 ? 1 : 0;
      m.bumpStyle();
      return { text: printModeTextOf(n) };
    },
  },
  {
    prefix: [ESC, ch('-')], name: 'ESC -', summary: 'Turn underline mode on/off', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const v = n === 1 || n === 49 ? 1 : n === 2 || n === 50 ? 2 : n === 0 || n === 48 ? 0 : -1;
      if (v < 0) return { text: `Underline: invalid ${n}`, kind: 'malformed', error: `invalid underline mode ${n}` };
      m.modes.underline = v;
      m.bumpStyle();
      return { text: underlineText(v) };
    },
  },
  {
    // TM-T88VI and later (and receipt-printer-encoder's italic()): ESC 4 n, n bit 0.
    prefix: [ESC, ch('4')], name: 'ESC 4', summary: 'Turn italic mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.italic = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: italicText(arg(b) & 1) };
    },
  },
  {
    // Star-compatible italic off without a parameter, accepted silently.
    prefix: [ESC, ch('5')], name: 'ESC 5', summary: 'Cancel italic mode', length: fixed(2),
    run(m) {
      m.modes.italic = false;
      m.bumpStyle();
      return { text: 'Italic off' };
    },
  },
  {
    prefix: [ESC, ch('E')], name: 'ESC E', summary: 'Turn emphasized mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.bold = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: emphasizedText(arg(b) & 1) };
    },
  },
  {
    prefix: [ESC, ch('G')], name: 'ESC G', summary: 'Turn double-strike mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.doubleStrike = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: doubleStrikeText(arg(b) & 1) };
    },
  },
  {
    prefix: [ESC, ch('M')], name: 'ESC M', summary: 'Select character font', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const f = n === 0 || n === 48 || n === 97 ? 0 : n === 1 || n === 49 || n === 98 ? 1 : n === 2 || n === 50 ? 2 : -1;
      if (f < 0) return { text: `Character font: invalid ${n}`, kind: 'malformed', error: `invalid font ${n}` };
      m.modes.font = f;
      m.bumpStyle();
      return { text: fontText(n) };
    },
  },
  {
    prefix: [ESC, ch('V')], name: 'ESC V', summary: 'Turn 90° clockwise rotation mode on/off', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      if (n > 2 && (n < 48 || n > 50)) return { text: `90° rotation: invalid ${n}`, kind: 'malformed', error: `invalid rotation mode ${n}` };
      m.modes.rotate90 = (n & 3) !== 0;
      m.bumpStyle();
      return { text: `90° clockwise rotation ${m.modes.rotate90 ? 'on' : 'off'}` };
    },
  },
  {
    prefix: [ESC, ch('{')], name: 'ESC {', summary: 'Turn upside-down print mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.upsideDown = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: upsideDownText(arg(b) & 1) };
    },
  },
  { prefix: [ESC, ch('r')], name: 'ESC r', summary: 'Select print color', length: fixed(3), run: (_m, b) => ({ text: `Print color ${arg(b) & 1 ? 'red' : 'black'}` }) },
  {
    prefix: [GS, ch('!')], name: 'GS !', summary: 'Select character size', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const w = ((n >> 4) & 7) + 1, h = (n & 7) + 1;
      if (n & 0x88) return { text: `Character size: invalid ${n}`, kind: 'malformed', error: `invalid character size ${n}` };
      m.modes.scaleX = w;
      m.modes.scaleY = h;
      m.bumpStyle();
      return { text: sizeText(n) };
    },
  },
  {
    prefix: [GS, ch('B')], name: 'GS B', summary: 'Turn white/black reverse print mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.reverse = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: reverseText(arg(b) & 1) };
    },
  },
  {
    prefix: [GS, ch('b')], name: 'GS b', summary: 'Turn smoothing mode on/off', length: fixed(3),
    run(m, b) {
      m.modes.smoothing = (arg(b) & 1) === 1;
      return { text: smoothingText(arg(b) & 1) };
    },
  },
];
