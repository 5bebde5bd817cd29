/** Fonts and character sets (^A, ^A@, ^CF, ^CI). */
import { charset, remapped } from '../charsets.ts';
import { residentFont, sizeFont, SCALABLE_DEFAULT } from '../fonts.ts';
import type { Orientation } from '../params.ts';
import { checked, MAX_DOTS, orientationOf, setting, type ZplCommand } from './types.ts';

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
      let font = residentFont(name, m.dpi);
      let note = '';
      if (!font) {
        font = residentFont('0', m.dpi)!;
        note = ` (font ${name} is not resident: font 0 prints)`;
        p.problems.push(`font ${name} is not a resident font; font 0 is used`);
      }
      const fallback = font.kind === 'scalable' ? { height: m.settings.defaultHeight ?? SCALABLE_DEFAULT.height, width: m.settings.defaultWidth ?? SCALABLE_DEFAULT.width } : { height: font.height, width: font.width };
      const sized = sizeFont(font, h || null, w || null, fallback);
      m.field.font = { font: sized, orientation };
      return checked(p, `Font ${font.name}${orientation}, ${sized.height}x${sized.width} dots${note}`);
    },
  },
  {
    ids: ['^A@'],
    summary: 'Use Font Name to Call Font',
    run: (m, p) => {
      const orientation = orientationOf(p, 0, m);
      const h = p.has(1) ? p.int(1, 'height', 0, 0, MAX_DOTS) : null;
      const w = p.has(2) ? p.int(2, 'width', 0, 0, MAX_DOTS) : null;
      const name = p.raw(3);
      const sized = sizeFont(residentFont('0', m.dpi)!, h || null, w || null, SCALABLE_DEFAULT);
      m.field.font = { font: sized, orientation };
      return checked(p, `Font ${name || '(unnamed)'} (printed with font 0), ${sized.height}x${sized.width} dots`);
    },
  },
  {
    ids: ['^CF'],
    summary: 'Change Alphanumeric Default Font',
    run: (m, p) => {
      const name = (p.raw(0) || m.settings.defaultFont).toUpperCase();
      if (!residentFont(name, m.dpi)) p.problems.push(`font ${name} is not a resident font`);
      else m.settings.defaultFont = name;
      m.settings.defaultHeight = p.has(1) ? p.int(1, 'height', 9, 1, MAX_DOTS) : null;
      m.settings.defaultWidth = p.has(2) ? p.int(2, 'width', 5, 1, MAX_DOTS) : null;
      const f = m.defaultFont();
      return checked(p, `Default font ${m.settings.defaultFont}, ${f.height}x${f.width} dots`);
    },
  },
  {
    ids: ['^CI'],
    summary: 'Change International Font/Encoding',
    run: (m, p) => {
      const id = p.int(0, 'character set', 0, 0, 36);
      const pairs: Array<[number, number]> = [];
      for (let i = 1; i + 1 < p.values.length; i += 2) pairs.push([p.int(i, 'source', 0, 0, 255), p.int(i + 1, 'destination', 0, 0, 255)]);
      const base = charset(id, m.model, m.getContext().multiByteEncoding);
      const cs = remapped(base, pairs);
      m.settings.charset = cs;
      if (!cs.exact) return { text: `Character set ${id}: ${cs.name}`, kind: 'malformed', error: `^CI${id} (${cs.name}) is not emulated: field data is decoded as Code Page 850` };
      if (pairs.length > 0 && !base.remappable) p.problems.push(`^CI${id} is a multi-byte set: its ${pairs.length} remapping pair${pairs.length === 1 ? ' is' : 's are'} ignored (remapping applies to ^CI0–^CI13 and the single-byte code pages)`);
      return checked(p, `Character set ${id}: ${cs.name}`);
    },
  },
  setting(['^CW'], 'Font Identifier'),
  setting(['^CO'], 'Cache On'),
  setting(['^CV'], 'Code Validation'),
];
