/** Character sets, code pages, fonts, sizes and styles. */
import { fixed, type Outcome } from '../../core/commands.ts';
import { INTERNATIONAL_SETS } from '../../escpos/codepages.ts';
import { starModel } from '../codepages.ts';
import type { StarMachine } from '../machine.ts';
import { ESC, GS, RS, ch, digit, hexDigit, type StarFamily } from '../define.ts';

const invalid = (what: string, n: number): Outcome => ({ text: `${what}: invalid parameter ${n}`, kind: 'malformed', error: `${what}: parameter ${n} is out of range` });

/** Character expansion 0..5 (or "0".."5") is 1..6 times. */
function expansion(n: number): number | null {
  const v = digit(n);
  return v >= 0 && v <= 5 ? v + 1 : null;
}

function style(m: StarMachine, change: () => void, text: string): Outcome {
  change();
  m.bumpStyle();
  return { text };
}

/** Fonts of Star thermal printers: A 12x24, B 9x24, C (SM-L200) 9x17. */
const FONT_NAMES = ['Font A', 'Font B', 'Font C'];

export const CHARACTERS: StarFamily = [
  {
    bytes: [ESC, ch('@')], name: 'ESC @', summary: 'Initialize the printer', length: fixed(2),
    run(m) {
      const discarded = m.initialize();
      return { text: discarded > 0 ? `Initialize printer (${discarded} unprinted characters discarded)` : 'Initialize printer' };
    },
  },
  {
    bytes: [ESC, ch('R')], name: 'ESC R n', summary: 'Select international character set', length: fixed(3),
    run(m, b) {
      const n = hexDigit(b[2]); // also "0".."9", "A".."D" (receiptline sends ESC R "8", ESC R "D")
      const set = INTERNATIONAL_SETS.get(n);
      if (!set || n > 13) return invalid('International character set', b[2]);
      m.modes.intlSet = n;
      return { text: `International character set ${n} (${set.name})` };
    },
  },
  {
    bytes: [ESC, GS, ch('t')], name: 'ESC GS t n', summary: 'Select code page', length: fixed(4),
    run(m, b) {
      const n = b[3];
      const table = m.codec.codeTable(n);
      if (!table) {
        const model = starModel(m.getContext(), m.language).name;
        return { text: `Code page ${n}: not a code table of the ${model}`, kind: 'malformed', error: `code page ${n} is not a code table of the ${model}` };
      }
      if (!table.chars) return { text: `Code page ${n} (${table.name}): not on this printer`, kind: 'malformed', error: `code page ${n} (${table.name}) is not available on this model` };
      m.modes.codePage = n;
      return { text: `Code page ${n}: ${table.name}` };
    },
  },
  { bytes: [ESC, ch('/')], name: 'ESC / n', summary: 'Select slash zero', length: fixed(3), run: (_m, b) => ({ text: `Slash zero ${digit(b[2]) & 1 ? 'on' : 'off'}` }) },
  {
    bytes: [ESC, RS, ch('F')], name: 'ESC RS F n', summary: 'Select font', length: fixed(4),
    run(m, b) {
      const f = digit(b[3]);
      if (f < 0 || f >= m.fonts.length) return invalid('Font', b[3]);
      return style(m, () => (m.modes.font = f), `Select ${FONT_NAMES[f]}`);
    },
  },
  {
    bytes: [ESC, ch('i')], name: 'ESC i n1 n2', summary: 'Set character expansion (height n1, width n2)', length: fixed(4),
    run(m, b) {
      const h = expansion(b[2]), w = expansion(b[3]);
      if (h === null || w === null) return invalid('Character expansion', h === null ? b[2] : b[3]);
      return style(m, () => { m.modes.scaleY = h; m.modes.scaleX = w; }, `Character expansion: height x${h}, width x${w}`);
    },
  },
  {
    bytes: [ESC, ch('W')], name: 'ESC W n', summary: 'Set character width expansion', length: fixed(3),
    run(m, b) {
      const w = expansion(b[2]);
      if (w === null) return invalid('Width expansion', b[2]);
      return style(m, () => (m.modes.scaleX = w), `Width expansion x${w}`);
    },
  },
  {
    bytes: [ESC, ch('h')], name: 'ESC h n', summary: 'Set character height expansion', length: fixed(3),
    run(m, b) {
      const h = expansion(b[2]);
      if (h === null) return invalid('Height expansion', b[2]);
      return style(m, () => (m.modes.scaleY = h), `Height expansion x${h}`);
    },
  },
  { bytes: [ESC, 0x0e], name: 'ESC SO', summary: 'Set double-high characters', length: fixed(2), run: (m) => style(m, () => (m.modes.scaleY = 2), 'Double height on') },
  { bytes: [ESC, 0x14], name: 'ESC DC4', summary: 'Cancel double-high characters', length: fixed(2), run: (m) => style(m, () => (m.modes.scaleY = 1), 'Double height off') },
  { bytes: [ESC, ch('E')], name: 'ESC E', summary: 'Select emphasized printing', length: fixed(2), run: (m) => style(m, () => (m.modes.bold = true), 'Emphasized on') },
  { bytes: [ESC, ch('F')], name: 'ESC F', summary: 'Cancel emphasized printing', length: fixed(2), run: (m) => style(m, () => (m.modes.bold = false), 'Emphasized off') },
  {
    bytes: [ESC, ch('-')], name: 'ESC - n', summary: 'Set underline mode', length: fixed(3),
    run(m, b) {
      const n = digit(b[2]);
      if (n > 1) return invalid('Underline', b[2]);
      return style(m, () => (m.modes.underline = n), `Underline ${n ? 'on' : 'off'}`);
    },
  },
  {
    // Slipstream's text element has no upper line: the setting is kept, not drawn.
    bytes: [ESC, ch('_')], name: 'ESC _ n', summary: 'Set upperline mode', length: fixed(3),
    run: (_m, b) => ({ text: `Upperline ${digit(b[2]) & 1 ? 'on (not drawn)' : 'off'}` }),
  },
  { bytes: [ESC, ch('4')], name: 'ESC 4', summary: 'Select white/black inverted printing', length: fixed(2), run: (m) => style(m, () => (m.modes.reverse = true), 'White/black inversion on') },
  { bytes: [ESC, ch('5')], name: 'ESC 5', summary: 'Cancel white/black inverted printing', length: fixed(2), run: (m) => style(m, () => (m.modes.reverse = false), 'White/black inversion off') },
  {
    bytes: [ESC, ch(' ')], name: 'ESC SP n', summary: 'Set character right space', length: fixed(3),
    run(m, b) {
      const n = b[2] >= 0x30 && b[2] <= 0x3f ? b[2] - 0x30 : b[2]; // 0..15 or "0".."?" (48..63)
      if (n > 15) return invalid('Character right space', b[2]);
      return style(m, () => (m.modes.rightSpacing = n), `Character right space ${n} dots`);
    },
  },
  {
    bytes: [ESC, ch('s')], name: 'ESC s n1 n2', summary: 'Set two-byte (Kanji) character left/right spaces', length: fixed(4),
    run(m, b) {
      const left = digit(b[2]), right = hexDigit(b[3]);
      if (left > 7 || right > 15) return invalid('Kanji character spaces', left > 7 ? b[2] : b[3]);
      return style(m, () => { m.modes.kanjiLeftSpacing = left; m.modes.kanjiRightSpacing = right; }, `Kanji character spaces: left ${left}, right ${right} dots`);
    },
  },
  {
    // receiptline sends ESC RS R 1 with Thai (TIS-620) text; marks print in their base cell whatever it says.
    bytes: [ESC, RS, ch('R')], name: 'ESC RS R n', summary: 'Thai character composition', length: fixed(4),
    run: (_m, b) => ({ text: `Thai character composition ${digit(b[3])}` }),
  },
  // Star Line Mode character pitch: 12-dot pitch is Font A, 15-dot Font B's pitch, 16-dot Font A with 4 dots of space.
  { bytes: [ESC, ch('M')], name: 'ESC M', summary: 'Select 12-dot pitch (Font A)', length: fixed(2), run: (m) => style(m, () => { m.modes.font = 0; m.modes.rightSpacing = 0; }, '12-dot pitch (Font A)') },
  { bytes: [ESC, ch('P')], name: 'ESC P', summary: 'Select 15-dot pitch (Font B)', length: fixed(2), run: (m) => style(m, () => { m.modes.font = 1; m.modes.rightSpacing = 0; }, '15-dot pitch (Font B)') },
  { bytes: [ESC, ch(':')], name: 'ESC :', summary: 'Select 16-dot pitch', length: fixed(2), run: (m) => style(m, () => { m.modes.font = 0; m.modes.rightSpacing = 4; }, '16-dot pitch (Font A, 4 dots right space)') },
  { bytes: [ESC, ch('6')], name: 'ESC 6', summary: 'Select character set 2', length: fixed(2), run: () => ({ text: 'Character set 2 (the code page stays as ESC GS t chose it)' }) },
  { bytes: [ESC, ch('7')], name: 'ESC 7', summary: 'Select character set 1', length: fixed(2), run: () => ({ text: 'Character set 1 (the code page stays as ESC GS t chose it)' }) },
  { bytes: [ESC, ch('%')], name: 'ESC % n', summary: 'Enable/disable download characters', length: fixed(3), run: (_m, b) => ({ text: `Download characters ${digit(b[2]) & 1 ? 'on (none defined)' : 'off'}` }) },
  // Multi-byte text (Kanji models): decoded with settings.multiByteEncoding, else the model's.
  { bytes: [ESC, ch('p')], name: 'ESC p', summary: 'Select JIS Kanji character mode', length: fixed(2), run: (m) => style(m, () => { m.modes.kanjiMode = true; m.modes.kanjiSystem = 'jis'; }, 'JIS Kanji mode on') },
  { bytes: [ESC, ch('q')], name: 'ESC q', summary: 'Cancel JIS Kanji character mode', length: fixed(2), run: (m) => style(m, () => { m.modes.kanjiMode = false; m.modes.kanjiSystem = 'native'; }, 'JIS Kanji mode off') },
  {
    bytes: [ESC, ch('$')], name: 'ESC $ n', summary: 'Select/cancel multi-byte (Shift JIS / regional) Kanji mode', length: fixed(3),
    run(m, b) {
      const on = (digit(b[2]) & 1) === 1;
      return style(m, () => { m.modes.kanjiMode = on; m.modes.kanjiSystem = 'native'; }, `Multi-byte character mode ${on ? 'on' : 'off'}`);
    },
  },
];
