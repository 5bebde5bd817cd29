/** Fonts and character sets (^A, ^A@, ^CF, ^CI, ^CW). */
import { charset, remapped, type UnicodeForm } from '../charsets.ts';
import { fontObject, isFontIdentifier } from '../font-ids.ts';
import { residentFont, sizeFont, SCALABLE, SCALABLE_DEFAULT } from '../fonts.ts';
import type { ZplMachine } from '../machine.ts';
import { objectName, type Orientation, type Params } from '../params.ts';
import { checked, MAX_DOTS, orientationOf, setting, type Outcome, type ZplCommand } from './types.ts';

export const FONT_COMMANDS: ZplCommand[] = [
  {
    ids: ['^A'],
    summary: 'Scalable/Bitmapped Font',
    run: (m, p) => {
      // "^A0N,30,20": the font name is the first character of the first parameter.
      const first = (p.values[0] ?? '').trim().toUpperCase();
      // The symbol font is two letters (^AGS…); every other font name is one character.
      const nameLength = first.startsWith('GS') ? 2 : 1;
      const name = first.slice(0, nameLength) || m.settings.defaultFont;
      const o = first.slice(nameLength).trim();
      const valid = o === '' || ['N', 'R', 'I', 'B'].includes(o);
      if (!valid) p.problems.push(`orientation '${o}' is not one of N, R, I, B`);
      const orientation: Orientation = o !== '' && valid ? (o as Orientation) : m.settings.fieldOrientation;
      const h = p.has(1) ? p.int(1, 'height', 0, 0, MAX_DOTS) : null;
      const w = p.has(2) ? p.int(2, 'width', 0, 0, MAX_DOTS) : null;
      const { font, note, problem } = m.fontByName(name);
      if (problem) p.problems.push(problem);
      const fallback = font.kind === 'scalable' ? { height: m.settings.defaultHeight ?? SCALABLE_DEFAULT.height, width: m.settings.defaultWidth ?? SCALABLE_DEFAULT.width } : { height: font.height, width: font.width };
      const sized = sizeFont(font, h || null, w || null, fallback);
      m.field.font = { font: sized, orientation, note };
      return checked(p, `Font ${name}${orientation}, ${sized.height}x${sized.width} dots${note ? ` (${note})` : ''}`);
    },
  },
  {
    ids: ['^A@'],
    summary: 'Use Font Name to Call Font',
    run: (m, p) => {
      const orientation = orientationOf(p, 0, m);
      const h = p.has(1) ? p.int(1, 'height', 0, 0, MAX_DOTS) : null;
      const w = p.has(2) ? p.int(2, 'width', 0, 0, MAX_DOTS) : null;
      // ^A@o,h,w,d:o.x: the object names a stored font (or the resident scalable font's file).
      const object = objectName(p.raw(3) || 'UNKNOWN', 'FNT');
      const stored = fontObject(object, m.memory);
      const note = stored ? stored.note : `${object} is not in printer memory: font 0 prints`;
      if (!stored) p.problems.push(`font ${object} is not in printer memory; font 0 is used`);
      const sized = sizeFont(SCALABLE, h || null, w || null, SCALABLE_DEFAULT);
      m.field.font = { font: sized, orientation, note };
      return checked(p, `Font ${object}, ${sized.height}x${sized.width} dots (${note})`);
    },
  },
  {
    ids: ['^CF'],
    summary: 'Change Alphanumeric Default Font',
    run: (m, p) => {
      const name = (p.raw(0) || m.settings.defaultFont).toUpperCase();
      if (!residentFont(name, m.dpi) && !m.memory.fontIds.has(name)) p.problems.push(`font ${name} is not a resident font`);
      else m.settings.defaultFont = name;
      m.settings.defaultHeight = p.has(1) ? p.int(1, 'height', 9, 1, MAX_DOTS) : null;
      m.settings.defaultWidth = p.has(2) ? p.int(2, 'width', 5, 1, MAX_DOTS) : null;
      const f = m.defaultFont();
      const { note } = m.fontByName(m.settings.defaultFont);
      return checked(p, `Default font ${m.settings.defaultFont}, ${f.height}x${f.width} dots${note ? ` (${note})` : ''}`);
    },
  },
  {
    ids: ['^CI'],
    summary: 'Change International Font/Encoding',
    run: (m, p) => {
      const id = p.int(0, 'character set', 0, 0, 36);
      const pairs: Array<[number, number]> = [];
      for (let i = 1; i + 1 < p.values.length; i += 2) pairs.push([p.int(i, 'source', 0, 0, 255), p.int(i + 1, 'destination', 0, 0, 255)]);
      const base = charset(id, m.model, m.getContext().multiByteEncoding, m.settings.unicodeForm);
      const cs = remapped(base, pairs);
      m.settings.charset = cs;
      if (!cs.exact) return { text: `Character set ${id}: ${cs.name}`, kind: 'malformed', error: `^CI${id} (${cs.name}) is not emulated: field data is decoded as Code Page 850` };
      if (pairs.length > 0 && !base.remappable) p.problems.push(`^CI${id} is a multi-byte set: its ${pairs.length} remapping pair${pairs.length === 1 ? ' is' : 's are'} ignored (remapping applies to ^CI0–^CI13 and the single-byte code pages)`);
      return checked(p, `Character set ${id}: ${cs.name}`);
    },
  },
  {
    ids: ['^CW'],
    summary: 'Font Identifier',
    run: (m, p) => {
      // ^CWa,d:o.x: font name a prints with the stored font d:o.x until power-off.
      const name = p.raw(0).trim().toUpperCase();
      if (!isFontIdentifier(name)) return { text: `Font identifier '${name}'`, kind: 'malformed', error: `^CW font name '${name}' is not one letter A–Z or digit 0–9 (ignored)` };
      const object = objectName(p.raw(1) || 'UNKNOWN', 'FNT');
      m.memory.fontIds.set(name, object);
      const stored = fontObject(object, m.memory);
      const what = stored ? stored.note : `not in printer memory yet: until it is, font ${name} prints as ${residentFont(name, m.dpi) ? `the resident font ${name}` : 'font 0'}`;
      return checked(p, `Font ${name} = ${object} (${what})`);
    },
  },
  {
    ids: ['^F8'],
    summary: 'Unicode field data in UTF-8 (^CI17)',
    run: (m, p) => unicodeForm(m, p, 8),
  },
  {
    // ^F16 frames as the two-letter code F1 followed by "6".
    ids: ['^F1'],
    summary: 'Unicode field data in UTF-16 (^CI17, ^F16)',
    run: (m, p) => {
      if (p.raw(0).trim() !== '6') return { text: `^F1${p.raw(0)}`, kind: 'malformed', error: `^F1${p.raw(0)} is not a command (^F16 was expected; ignored)` };
      return unicodeForm(m, p, 16);
    },
  },
  setting(['^CO'], 'Cache On'),
  setting(['^CV'], 'Code Validation'),
];

/** ^F8 / ^F16: the form of ^CI17's Unicode field data, now if ^CI17 is selected, else from when it is. */
function unicodeForm(m: ZplMachine, p: Params, form: UnicodeForm): Outcome {
  m.settings.unicodeForm = form;
  const selected = m.settings.charset.id === 17;
  if (selected) m.settings.charset = charset(17, m.model, m.getContext().multiByteEncoding, form);
  return checked(p, `^CI17 field data is ${form === 8 ? 'UTF-8' : 'UTF-16 big-endian'}${selected ? '' : ' (when ^CI17 is selected)'}`);
}
