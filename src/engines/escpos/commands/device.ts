/** Printer control: initialize, cuts, drawer pulses, panel, macros, counters, and the GS ( / ESC ( function groups. */
import { arg, fixed, pLpH, type Outcome } from '../../core/commands.ts';
import { CUT_NAMES, GS_PAREN_NAMES } from '../descriptions.ts';
import { symbol } from './codes.ts';
import { verticalRule } from './vertical-rules.ts';
import { graphics } from './images.ts';
import { ESC, GS, ch, type EscPosFamily } from './define.ts';
import type { EscPosMachine } from '../machine.ts';

function gsV(m: EscPosMachine, b: Uint8Array): Outcome {
  const mode = b[2];
  const name = CUT_NAMES[mode];
  if (!name) return { text: `Cut: invalid mode ${mode}`, kind: 'malformed', error: `invalid cut mode ${mode}` };
  const n = b.length > 3 ? b[3] : 0;
  if (mode === 103 || mode === 104) {
    m.cut(n);
    return { text: `${name} after feeding ${n} dots` };
  }
  m.cut(b.length > 3 ? n : 0);
  return { text: b.length > 3 ? `${name} (feed ${n} dots)` : name };
}

export const DEVICE: EscPosFamily = [
  {
    prefix: [ESC, ch('@')], name: 'ESC @', summary: 'Initialize printer', length: fixed(2),
    run(m) {
      const discarded = m.initialize();
      return { text: discarded > 0 ? `Initialize printer (${discarded} unprinted characters discarded)` : 'Initialize printer' };
    },
  },
  { prefix: [ESC, ch('=')], name: 'ESC =', summary: 'Select peripheral device', length: fixed(3), run: (_m, b) => ({ text: `Select peripheral device ${arg(b)}` }) },
  {
    prefix: [ESC, ch('c')], name: 'ESC c', summary: 'Paper sensor and panel settings (ESC c 3/4/5)',
    length: (b, n) => (n < 3 ? 3 : b[2] >= 0x30 && b[2] <= 0x35 ? 4 : b[2] <= 5 ? 4 : 3),
    run: (_m, b) => ({ text: b.length === 4 ? `Paper sensor / panel setting ESC c ${String.fromCharCode(b[2])} ${b[3]}` : 'ESC c (unsupported function)' }),
  },
  {
    prefix: [ESC, ch('p')], name: 'ESC p', summary: 'Generate pulse', length: fixed(5),
    run(m, b) {
      const pin = b[2];
      const drawer = pin === 0 || pin === 48 ? 1 : pin === 1 || pin === 49 ? 2 : 0;
      if (!drawer) return { text: `Drawer pulse: invalid pin ${pin}`, kind: 'malformed', error: `invalid connector pin ${pin}` };
      m.emit({ type: 'drawerKick', drawer });
      return { text: `Generate pulse: drawer ${drawer} (pin ${drawer === 1 ? 2 : 5}), on ${b[3] * 2} ms, off ${b[4] * 2} ms` };
    },
  },
  { prefix: [ESC, ch('U')], name: 'ESC U', summary: 'Turn unidirectional print mode on/off', length: fixed(3), run: (_m, b) => ({ text: `Unidirectional printing ${arg(b) & 1 ? 'on' : 'off'}` }) },
  {
    prefix: [ESC, ch('i')], name: 'ESC i', summary: 'Partial cut (one point left uncut)', length: fixed(2),
    run(m) {
      m.cut(0);
      return { text: 'Partial cut (one point left)' };
    },
  },
  {
    prefix: [ESC, ch('m')], name: 'ESC m', summary: 'Partial cut (three points left uncut)', length: fixed(2),
    run(m) {
      m.cut(0);
      return { text: 'Partial cut (three points left)' };
    },
  },
  {
    prefix: [GS, ch('V')], name: 'GS V', summary: 'Select cut mode and cut paper',
    length: (b, n) => (n < 3 ? 3 : b[2] === 0 || b[2] === 1 || b[2] === 0x30 || b[2] === 0x31 ? 3 : 4),
    run: (m, b) => gsV(m, b),
  },
  {
    prefix: [ESC, ch('(')], name: 'ESC (', summary: 'Beeper and batch print functions (ESC ( A, ESC ( Y)', length: pLpH(3), header: 9,
    run(_m, b) {
      const f = String.fromCharCode(b[2]);
      if (f === 'A') return { text: 'Beeper (not emulated)' };
      if (f === 'Y') return { text: 'Specify batch print' };
      return { text: `ESC ( ${f} (not emulated)` };
    },
  },
  {
    prefix: [GS, ch('(')], name: 'GS (', summary: 'Function groups: graphics (L), 2D codes (k), responses (H) and settings', length: pLpH(3), header: 9,
    run(m, b, raw) {
      const f = String.fromCharCode(b[2]);
      switch (f) {
        case 'L':
          return graphics(m, b, 5, raw);
        case 'k':
          return symbol(m, b, raw);
        case 'Q':
          return verticalRule(m, b, raw);
        case 'H':
          if (b.length >= 11 && b[5] === 48) {
            m.reply(Uint8Array.of(0x37, 0x22, b[7], b[8], b[9], b[10], 0x00));
            return { text: 'Request transmission of process ID response' };
          }
          return { text: 'Request transmission of response or status (unsupported function)' };
        default:
          return { text: `${GS_PAREN_NAMES[f] ?? 'GS ( ' + f} (not emulated)` };
      }
    },
  },
  { prefix: [GS, ch(':')], name: 'GS :', summary: 'Start/end of macro definition', length: fixed(2), run: () => ({ text: 'Start/end of macro definition (not emulated)' }) },
  { prefix: [GS, ch('^')], name: 'GS ^', summary: 'Execute macro', length: fixed(5), run: () => ({ text: 'Execute macro (not emulated)' }) },
  {
    prefix: [GS, ch('C')], name: 'GS C', summary: 'Counter printing settings',
    length: (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 5 : b[2] === 0x31 ? 9 : b[2] === 0x32 ? 5 : b[2] === 0x3b ? 5 : 3),
    run: () => ({ text: 'Counter printing (not emulated)' }),
  },
  { prefix: [GS, ch('c')], name: 'GS c', summary: 'Print counter', length: fixed(2), run: () => ({ text: 'Print counter (not emulated)' }) },
  {
    prefix: [GS, ch('g')], name: 'GS g', summary: 'Maintenance counter', length: (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 6 : b[2] === 0x32 ? 6 : 3),
    run: () => ({ text: 'Maintenance counter (not emulated)' }),
  },
  { prefix: [GS, ch('z')], name: 'GS z', summary: 'Set online recovery wait time', length: (b, n) => (n < 3 ? 3 : b[2] === 0x30 ? 4 : 3), run: () => ({ text: 'Set online recovery wait time' }) },
];
