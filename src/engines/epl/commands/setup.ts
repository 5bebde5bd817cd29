/** Label setup: clear, size, reference point, direction, character set, speed, density, options. */
import { lookupCodePage } from '../codepages.ts';
import { int, splitParams } from '../params.ts';
import type { LabelSetup } from '../state.ts';
import { inRange, none, refuse, setup, type EplFamily } from './define.ts';

const backup = (name: 'JF' | 'JB' | 'JC', summary: string) =>
  setup({
    name, summary, group: 'config', takesParameters: false, parse: none,
    apply(s) {
      s.backup = name;
      return { text: `${summary} (configuration only)` };
    },
  });

const direction = (name: 'ZT' | 'ZB', summary: string, topFirst: boolean, text: string) =>
  setup({
    name, summary, group: 'setup', takesParameters: false, parse: none,
    apply(s) {
      s.topFirst = topFirst;
      return { text };
    },
  });

export const SETUP: EplFamily = [
  setup({
    name: 'N', summary: 'Clear image buffer', group: 'setup', takesParameters: false, parse: none, storedInForm: false,
    apply: () => ({ text: 'Clear image buffer' }),
    live: (session) => session.clearBuffer(),
  }),
  setup({
    name: 'q', summary: 'Set label width', group: 'setup', takesParameters: true,
    parse(rest) {
      const w = int(splitParams(rest)[0]);
      return inRange(w, 1) ? w : refuse('width must be a number of dots');
    },
    apply(s, w) {
      s.width = w;
      return { text: `Label width ${w} dots`, params: { width: String(w) } };
    },
  }),
  setup({
    name: 'Q', summary: 'Set label length and gap', group: 'setup', takesParameters: true,
    parse(rest) {
      const p = splitParams(rest);
      const length = int(p[0]);
      if (!inRange(length, 1)) return refuse('label length must be a number of dots');
      const gap = (p[1] ?? '').trim();
      if (gap !== '' && !/^(B?\d{1,5}|\d{1,5}|B\d{1,5})$/.test(gap)) return refuse(`invalid gap "${gap}"`);
      if (p[2] !== undefined && !/^[+-]?\d{1,5}$/.test(p[2].trim())) return refuse(`invalid offset "${p[2]}"`);
      return { length, gap };
    },
    apply(s, { length, gap }) {
      s.length = length;
      s.gap = gap;
      const media = gap === '0' ? 'continuous media' : gap.startsWith('B') ? `black mark ${gap.slice(1)} dots` : gap ? `gap ${gap} dots` : 'gap unchanged';
      return { text: `Label length ${length} dots, ${media}`, params: { length: String(length), gap } };
    },
  }),
  setup({
    name: 'R', summary: 'Set reference point', group: 'setup', takesParameters: true,
    parse(rest) {
      const p = splitParams(rest);
      const x = int(p[0]), y = int(p[1] ?? '0');
      return inRange(x) && inRange(y) ? { x, y } : refuse('reference point must be two numbers of dots');
    },
    apply(s, { x, y }) {
      s.refX = x;
      s.refY = y;
      return { text: `Reference point (${x},${y})` };
    },
  }),
  direction('ZT', 'Print direction: top of image first', true, 'Print direction: top first (normal)'),
  direction('ZB', 'Print direction: bottom of image first (label turned 180 degrees)', false, 'Print direction: bottom first (label turned 180 degrees)'),
  setup({
    name: 'I', summary: 'Character set selection', group: 'setup', takesParameters: true,
    parse(rest) {
      const p = splitParams(rest);
      const bits = (p[0] ?? '').trim();
      if (bits !== '8' && bits !== '7') return refuse('data bits must be 7 or 8');
      const page = lookupCodePage(p[1] ?? '0');
      if (!page) return refuse(`unknown code page "${p[1]}"`);
      return { bits, page, country: p[2] };
    },
    apply(s, { bits, page, country }) {
      s.eightBit = bits === '8';
      s.codePage = page;
      const note = page.exact ? '' : ' (rendered with DOS 437 glyph mapping)';
      return { text: `Character set ${bits}-bit, ${page.name}${country ? `, country ${country}` : ''}${note}` };
    },
  }),
  setup({
    name: 'S', summary: 'Speed select', group: 'config', takesParameters: true,
    parse(rest) {
      const v = Number((splitParams(rest)[0] ?? '').trim());
      return v >= 1 && v <= 6 ? v : refuse('speed must be 1 to 6');
    },
    apply(s, v) {
      s.speed = v;
      return { text: `Print speed ${v} (configuration only)` };
    },
  }),
  setup({
    name: 'D', summary: 'Density', group: 'config', takesParameters: true,
    parse(rest) {
      const v = int(splitParams(rest)[0]);
      return inRange(v, 0, 15) ? v : refuse('density must be 0 to 15');
    },
    apply(s, v) {
      s.density = v;
      return { text: `Print density ${v} (configuration only)` };
    },
  }),
  setup({
    name: 'O', summary: 'Hardware options', group: 'config', takesParameters: true,
    parse: (rest) => rest.trim(),
    apply(s: LabelSetup, options: string) {
      s.options = options ? options.split(',').map((x) => x.trim()) : [];
      return { text: `Hardware options ${options || 'reset'} (configuration only)` };
    },
  }),
  backup('JF', 'Enable top of form backup'),
  backup('JB', 'Disable top of form backup'),
  backup('JC', 'Disable top of form backup for cutter and dispenser'),
];
