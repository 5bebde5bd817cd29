/** Formats, fields, stored formats and serialization (^XA … ^XZ, ^FO … ^FS, ^DF / ^XF, ^SN). */
import { preview, type ZplMachine } from '../machine.ts';
import { objectName, Params } from '../params.ts';
import type { StoredCommand } from '../state.ts';
import { lookupCommand } from './index.ts';
import { checked, MAX_DOTS, ok, orientationOf, setting, type Outcome, type ZplCommand } from './types.ts';

export const FORMAT_COMMANDS: ZplCommand[] = [
  {
    ids: ['^XA'],
    summary: 'Start Format',
    run: (m) => {
      const w = m.startFormat();
      return w ? { text: 'Start of format', kind: 'malformed', error: w } : ok('Start of format');
    },
  },
  {
    ids: ['^XZ'],
    summary: 'End Format',
    run: (m) => {
      if (!m.format) return { text: 'End of format without a start', kind: 'malformed', error: '^XZ without ^XA' };
      return ok(m.endFormat());
    },
  },
  {
    ids: ['^PQ'],
    summary: 'Print Quantity',
    run: (m, p) => {
      const q = p.int(0, 'quantity', 1, 1, 99999999);
      const pauseEvery = p.int(1, 'pause and cut value', 0, 0, 99999999);
      const r = p.int(2, 'replicates of each serial number', 0, 0, 99999999);
      const override = p.yes(3, 'override pause count', false);
      m.setQuantity(q, r, override ? 0 : pauseEvery);
      const pause = pauseEvery && !override ? `, pausing after every ${pauseEvery}` : '';
      return checked(p, `Print ${q} label${q === 1 ? '' : 's'}${r ? `, ${r + 1} of each serial number` : ''}${pause}`);
    },
  },
  {
    ids: ['^DF'],
    summary: 'Download Format',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'ZPL');
      m.beginStore(name);
      return ok(`Store the rest of this format as ${name}`);
    },
  },
  {
    ids: ['^XF'],
    summary: 'Recall Format',
    run: (m, p) => {
      const name = objectName(p.raw(0) || 'UNKNOWN', 'ZPL');
      const stored = m.memory.forms.get(name);
      if (!stored) return { text: `Recall format ${name}`, kind: 'malformed', error: `format ${name} is not in printer memory` };
      replayFormat(m, stored.commands);
      return ok(`Recall format ${name} (${stored.commands.length} commands)`);
    },
  },
  {
    ids: ['^FN'],
    summary: 'Field Number',
    run: (m, p) => {
      const n = p.int(0, 'field number', 0, 0, 9999);
      m.field.fieldNumber = n;
      return checked(p, `Field number ${n}`);
    },
  },
  {
    ids: ['^FO'],
    summary: 'Field Origin',
    run: (m, p) => origin(m, p, false),
  },
  {
    ids: ['^FT'],
    summary: 'Field Typeset',
    run: (m, p) => origin(m, p, true),
  },
  {
    ids: ['^FD'],
    summary: 'Field Data',
    run: (m, p, input) => fieldData(m, input.params),
  },
  {
    ids: ['^FV'],
    summary: 'Field Variable',
    run: (m, p, input) => fieldData(m, input.params),
  },
  {
    ids: ['^FS'],
    summary: 'Field Separator',
    run: (m) => ok(m.finishField()),
  },
  {
    ids: ['^FH'],
    summary: 'Field Hexadecimal Indicator',
    run: (m, p) => {
      const c = (p.values[0] ?? '').trim() || '_';
      m.field.hexEscape = c[0];
      return ok(`Hexadecimal escapes start with '${c[0]}'`);
    },
  },
  {
    ids: ['^FX'],
    summary: 'Comment',
    run: (m, p, input) => ok(`Comment: ${preview(input.params)}`),
  },
  {
    ids: ['^FR'],
    summary: 'Field Reverse Print',
    run: (m) => {
      m.field.reverse = true;
      return ok('Field printed reversed (white on black)');
    },
  },
  {
    ids: ['^FW'],
    summary: 'Field Orientation',
    run: (m, p) => {
      m.settings.fieldOrientation = p.orientation(0, m.settings.fieldOrientation);
      m.settings.fieldJustification = p.int(1, 'justification', m.settings.fieldJustification, 0, 2) as 0 | 1 | 2;
      return checked(p, `Default field orientation ${m.settings.fieldOrientation}`);
    },
  },
  {
    ids: ['^FB'],
    summary: 'Field Block',
    run: (m, p) => {
      const width = p.int(0, 'block width', 0, 0, MAX_DOTS);
      const maxLines = p.int(1, 'maximum lines', 1, 1, 9999);
      const lineSpacing = p.int(2, 'line spacing', 0, -9999, 9999);
      const justification = p.choice(3, 'justification', ['L', 'C', 'R', 'J'] as const, 'L');
      const hangingIndent = p.int(4, 'hanging indent', 0, 0, 9999);
      m.field.block = { width, maxLines, lineSpacing, justification, hangingIndent };
      return checked(p, `Field block ${width} dots wide, ${maxLines} line${maxLines === 1 ? '' : 's'}, ${justification}`);
    },
  },
  {
    ids: ['^TB'],
    summary: 'Text Block',
    run: (m, p) => {
      const o = orientationOf(p, 0, m);
      const width = p.int(1, 'block width', 0, 0, MAX_DOTS);
      const height = p.int(2, 'block height', 0, 0, MAX_DOTS);
      const cur = m.currentFont();
      m.field.font = { ...cur, orientation: o };
      m.field.block = { width, maxLines: 9999, lineSpacing: 0, justification: 'L', hangingIndent: 0, height };
      return checked(p, `Text block ${width}x${height}`);
    },
  },
  {
    ids: ['^SN'],
    summary: 'Serialization Data',
    run: (m, p) => {
      const value = p.values[0] ?? '';
      const increment = p.int(1, 'increment', 1, -999999999, 999999999);
      const leadingZeros = p.yes(2, 'leading zeros', false);
      m.field.data = value;
      m.field.charset = m.settings.charset;
      m.field.serial = { kind: 'SN', increment, leadingZeros };
      return checked(p, `Serial number from "${preview(value)}", step ${increment}`);
    },
  },
  {
    ids: ['^SF'],
    summary: 'Serialization Field',
    run: (m, p) => {
      const mask = p.raw(0);
      const increment = p.raw(1) || '1';
      m.field.serial = { kind: 'SF', mask, increment };
      return ok(`Serialized with mask "${mask}", increment "${increment}"`);
    },
  },
  setting(['^SL'], 'Set Mode and Language (real-time clock)'),
  setting(['^ST'], 'Set Date and Time (real-time clock)'),
  {
    ids: ['^FC'],
    summary: 'Field Clock',
    run: (m, p) => {
      const indicator = (p.values[0] ?? '').trim().slice(0, 1) || '%';
      m.field.clock = indicator;
      return ok(`Clock codes after '${indicator}' print the date and time`);
    },
  },
  setting(['^FP'], 'Field Parameter'),
  setting(['^FM'], 'Multiple Field Origin Locations'),
  setting(['^FL'], 'Font Linking'),
];

function origin(m: ZplMachine, p: Params, typeset: boolean): Outcome {
  const x = p.int(0, 'x', 0, 0, MAX_DOTS);
  const y = p.int(1, 'y', 0, 0, MAX_DOTS);
  const justification = p.int(2, 'justification', m.settings.fieldJustification, 0, 2) as 0 | 1 | 2;
  if (m.fieldHasContent() && m.field.origin !== null && (m.field.data !== null || m.field.graphic !== null)) {
    // A new origin after a complete field without ^FS: Zebra starts a new field.
    m.finishField();
  }
  m.field.origin = { x: x + m.settings.homeX, y: y + m.settings.homeY, typeset, justification };
  return checked(p, `${typeset ? 'Typeset' : 'Origin'} at ${x},${y}`);
}

function fieldData(m: ZplMachine, data: string): Outcome {
  m.field.data = data;
  m.field.charset = m.settings.charset;
  return ok(`Data "${preview(data)}"`);
}

/** ^XF: run the stored commands as if they were received here. */
function replayFormat(m: ZplMachine, commands: readonly StoredCommand[]): void {
  for (const c of commands) {
    const entry = lookupCommand(c.prefix, c.code);
    if (!entry) continue;
    try {
      entry.run(m, new Params(c.params, c.delimiter), { params: c.params, binary: c.binary });
    } catch {
      // A stored command that fails is skipped; it was reported when it was stored.
    }
  }
}
