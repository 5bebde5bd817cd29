/** Character tables, user-defined characters, Kanji (multi-byte) modes and encodings. */
import { arg, fixed, pLpH, type LenFn } from '../../core/commands.ts';
import { hexByte } from '../../core/hex.ts';
import { Bitmap } from '../../raster/bitmap.ts';
import { INTERNATIONAL_SETS } from '../codepages.ts';
import { FS_PAREN_NAMES, onOff } from '../descriptions.ts';
import { ESC, FS, ch, type EscPosFamily } from './define.ts';

/** ESC & y c1 c2 [x d1..d(y*x)]...: walk the character definitions received so far. */
const escAmp: LenFn = (b, n) => {
  if (n < 5) return 5;
  const y = b[2], c1 = b[3], c2 = b[4];
  if (c2 < c1) return 5;
  let pos = 5;
  for (let c = c1; c <= c2; c++) {
    if (n <= pos) return pos + 1;
    pos += 1 + y * b[pos];
  }
  return pos;
};

export const CHARACTERS: EscPosFamily = [
  {
    prefix: [ESC, ch('%')], name: 'ESC %', summary: 'Select/cancel user-defined character set', length: fixed(3),
    run(m, b) {
      m.modes.userCharsOn = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: `User-defined character set ${onOff(arg(b))}` };
    },
  },
  {
    prefix: [ESC, ch('&')], name: 'ESC &', summary: 'Define user-defined characters', length: escAmp, header: 5,
    run(m, b) {
      const y = b[2], c1 = b[3], c2 = b[4];
      if (y < 1 || y > 3 || c1 < 32 || c2 > 126 || c2 < c1) {
        return { text: `Define user-defined characters: invalid parameters y=${y} c1=${c1} c2=${c2}`, kind: 'malformed', error: 'invalid user-defined character parameters' };
      }
      const font = y === 3 ? 0 : 1;
      const height = y === 3 ? 24 : 17;
      let pos = 5;
      for (let c = c1; c <= c2; c++) {
        const x = b[pos];
        const glyph = Bitmap.fromColumns(x, y, b.subarray(0, pos + 1 + x * y), pos + 1);
        const out = new Bitmap(x, height);
        out.blit(glyph, 0, 0, 'copy');
        m.userChars[font].set(c, out);
        if (font === 1) m.userChars[2].set(c, out);
        pos += 1 + x * y;
      }
      return { text: `Define user-defined characters 0x${hexByte(c1)}..0x${hexByte(c2)} (${y * 8} dots high)` };
    },
  },
  {
    prefix: [ESC, ch('?')], name: 'ESC ?', summary: 'Cancel user-defined characters', length: fixed(3),
    run(m, b) {
      for (const map of m.userChars) map.delete(arg(b));
      return { text: `Cancel user-defined character 0x${hexByte(arg(b))}` };
    },
  },
  {
    prefix: [ESC, ch('R')], name: 'ESC R', summary: 'Select an international character set', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const set = INTERNATIONAL_SETS.get(n);
      if (!set) return { text: `International character set ${n} unknown`, kind: 'malformed', error: `unknown international character set ${n}` };
      m.modes.intlSet = n;
      return { text: `International character set: ${set.name}` };
    },
  },
  {
    prefix: [ESC, ch('t')], name: 'ESC t', summary: 'Select character code table', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const table = m.codec.codeTable(n);
      if (!table) return { text: `Character code table ${n} unknown`, kind: 'malformed', error: `unknown character code table ${n}` };
      if (!table.chars) return { text: `Character code table ${n} (${table.name}): not on this printer model`, kind: 'malformed', error: `character code table ${n} (${table.name}) is not on this printer model` };
      m.modes.codePage = n;
      return { text: `Character code table: ${table.name}` };
    },
  },
];

export const KANJI: EscPosFamily = [
  {
    prefix: [FS, ch('!')], name: 'FS !', summary: 'Select print mode(s) for Kanji characters', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.modes.kanjiDoubleWidth = (n & 0x04) !== 0;
      m.modes.kanjiDoubleHeight = (n & 0x08) !== 0;
      m.modes.kanjiUnderline = n & 0x80 ? 1 : 0;
      m.bumpStyle();
      return { text: `Kanji print mode 0x${hexByte(n)}` };
    },
  },
  {
    prefix: [FS, ch('&')], name: 'FS &', summary: 'Select Kanji character mode', length: fixed(2),
    run(m) {
      m.modes.kanjiMode = true;
      return { text: `Kanji character mode on (${m.multiByte})` };
    },
  },
  {
    prefix: [FS, ch('.')], name: 'FS .', summary: 'Cancel Kanji character mode', length: fixed(2),
    run(m) {
      m.modes.kanjiMode = false;
      m.mbPending = [];
      return { text: 'Kanji character mode off' };
    },
  },
  {
    prefix: [FS, ch('-')], name: 'FS -', summary: 'Turn underline mode on/off for Kanji characters', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.modes.kanjiUnderline = n === 1 || n === 49 ? 1 : n === 2 || n === 50 ? 2 : 0;
      m.bumpStyle();
      return { text: `Kanji underline ${m.modes.kanjiUnderline ? m.modes.kanjiUnderline + ' dot' : 'off'}` };
    },
  },
  // FS 2 c1 c2 d1..dk: user-defined Kanji, 72 bytes (24x24) on Font A models.
  { prefix: [FS, ch('2')], name: 'FS 2', summary: 'Define user-defined Kanji characters', length: fixed(4 + 72), header: 4, run: (_m, b) => ({ text: `Define user-defined Kanji character ${hexByte(b[2])}${hexByte(b[3])} (not drawn)` }) },
  { prefix: [FS, ch('?')], name: 'FS ?', summary: 'Cancel user-defined Kanji characters', length: fixed(4), run: () => ({ text: 'Cancel user-defined Kanji character' }) },
  {
    prefix: [FS, ch('C')], name: 'FS C', summary: 'Select Kanji character code system', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      // Only a Japanese (Shift JIS) unit has JIS / Shift JIS code systems to choose from; a
      // Chinese, Korean or UTF-8 unit ignores the command (receiptline sends FS C 0 before
      // every rule, also to GB18030 printers, and prints Chinese after it).
      if (m.codec.kanji !== 'shift_jis') return { text: `Kanji code system ${n}: ignored (not a Shift JIS printer)` };
      if (n === 0 || n === 48) m.modes.kanjiSystem = 'jis';
      else if (n === 1 || n === 49 || n === 2 || n === 50) m.modes.kanjiSystem = 'shift_jis';
      else return { text: `Kanji code system: invalid ${n}`, kind: 'malformed', error: `invalid Kanji code system ${n}` };
      return { text: `Kanji code system: ${m.modes.kanjiSystem === 'jis' ? 'JIS' : 'Shift JIS'}` };
    },
  },
  {
    prefix: [FS, ch('S')], name: 'FS S', summary: 'Set left- and right-side Kanji character spacing', length: fixed(4),
    run(m, b) {
      m.modes.kanjiLeftSpacing = b[2];
      m.modes.kanjiRightSpacing = b[3];
      m.bumpStyle();
      return { text: `Kanji spacing left ${b[2]}, right ${b[3]}` };
    },
  },
  {
    prefix: [FS, ch('W')], name: 'FS W', summary: 'Turn quadruple-size mode on/off for Kanji characters', length: fixed(3),
    run(m, b) {
      m.modes.kanjiDoubleWidth = (arg(b) & 1) === 1;
      m.modes.kanjiDoubleHeight = (arg(b) & 1) === 1;
      m.bumpStyle();
      return { text: `Kanji quadruple-size ${onOff(arg(b))}` };
    },
  },
  {
    prefix: [FS, ch('(')], name: 'FS (', summary: 'Kanji and encoding functions (FS ( A, C, E, L, e)', length: pLpH(3), header: 9,
    run(m, b) {
      const f = String.fromCharCode(b[2]);
      const fn = b.length > 5 ? b[5] : -1;
      if (f === 'C' && fn === 48 && b.length > 6) {
        const v = b[6];
        if (v === 1 || v === 49) { m.modes.utf8 = false; return { text: 'Character encoding: 1-byte code page' }; }
        if (v === 2 || v === 50) { m.modes.utf8 = true; return { text: 'Character encoding: UTF-8' }; }
        return { text: `Character encoding: invalid ${v}`, kind: 'malformed', error: `invalid character encoding ${v}` };
      }
      return { text: `${FS_PAREN_NAMES[f] ?? 'FS ( ' + f} (not emulated)` };
    },
  },
];
