/** Cutter, drawer pulse widths, print settings, status requests and identification. */
import { NUL_TERMINATED, fixed, type Outcome } from '../../core/commands.ts';
import type { StarMachine } from '../machine.ts';
import { starModel } from '../codepages.ts';
import { starVersionReply } from '../status.ts';
import { ESC, GS, LF, NUL, RS, ch, digit, type StarFamily } from '../define.ts';

const CUTS = ['Full cut', 'Partial cut', 'Full cut after feeding to the cut position', 'Partial cut after feeding to the cut position'];

function cut(m: StarMachine, n: number): Outcome {
  const mode = digit(n);
  const name = CUTS[mode];
  if (!name) return { text: `Cut: invalid mode ${n}`, kind: 'malformed', error: `ESC d ${n}: mode must be 0 to 3` };
  m.cut(0);
  return { text: name };
}

export const DEVICE: StarFamily = [
  { bytes: [ESC, ch('d')], name: 'ESC d n', summary: 'Auto cutter: full or partial cut', length: fixed(3), run: (m, b) => cut(m, b[2]) },
  {
    bytes: [ESC, 0x07], name: 'ESC BEL n1 n2', summary: 'Set pulse width of peripheral device drive', length: fixed(4),
    run: (_m, b) => ({ text: `Drawer pulse: on ${b[2] * 10} ms, off ${b[3] * 10} ms` }),
  },
  { bytes: [ESC, RS, ch('d')], name: 'ESC RS d n', summary: 'Set print density', length: fixed(4), run: (_m, b) => ({ text: `Print density ${b[3]}` }) },
  { bytes: [ESC, RS, ch('r')], name: 'ESC RS r n', summary: 'Set print speed', length: fixed(4), run: (_m, b) => ({ text: `Print speed ${b[3]}` }) },
  { bytes: [ESC, GS, ch('g'), ch('0')], name: 'ESC GS g 0 m n', summary: 'Print starting trigger', length: fixed(6), run: () => ({ text: 'Print starting trigger' }) },
  { bytes: [ESC, GS, ch('g'), ch('1')], name: 'ESC GS g 1 m n', summary: 'Print starting timer', length: fixed(6), run: (_m, b) => ({ text: `Print starting timer ${b[5] * 10} ms` }) },
  {
    // Sent at the end of a document by receipt drivers (receiptline's "finish printing").
    bytes: [ESC, GS, 0x03], name: 'ESC GS ETX s n1 n2', summary: 'Document control (end of document)', length: fixed(6),
    run: (_m, b) => ({ text: `Document control ${b[3]} (${b[4]}, ${b[5]})` }),
  },
  {
    bytes: [ESC, 0x06, 0x01], name: 'ESC ACK SOH', summary: 'Inquire automatic status (real time)', length: fixed(3),
    run(m) {
      m.sendAsb();
      return { text: 'Automatic status sent' };
    },
  },
  {
    bytes: [ESC, RS, ch('a')], name: 'ESC RS a n', summary: 'Set status transmission conditions', length: fixed(4),
    run(m, b) {
      const n = digit(b[3]);
      if (n > 3) return { text: `Status transmission: invalid ${b[3]}`, kind: 'malformed', error: `ESC RS a ${b[3]}: n must be 0 to 3` };
      m.asbEnabled = n !== 0;
      // Star sends the automatic status once when the command is received.
      m.sendAsb();
      return { text: m.asbEnabled ? 'Automatic status on (sent now and on every change)' : 'Automatic status off (sent once)' };
    },
  },
  {
    bytes: [ESC, ch('#'), ch('*'), LF, NUL], name: 'ESC # * LF NUL', summary: 'Inquire printer version', length: fixed(5),
    run(m) {
      const { modelName, firmware } = starModel(m.getContext(), m.language).identity;
      m.reply(starVersionReply(modelName, firmware));
      return { text: `Printer version: ${modelName} ${firmware}` };
    },
  },
  {
    // Memory switch commands (ESC # N , n1..n4 LF NUL, ESC # N ? ... LF NUL, ESC # @ LF NUL):
    // framed to their NUL; Slipstream keeps no memory switches.
    bytes: [ESC, ch('#')], name: 'ESC # ... LF NUL', summary: 'Memory switch setting / inquiry', length: () => NUL_TERMINATED, header: 12,
    run: (_m, b) => ({ text: `Memory switch command ESC # ${String.fromCharCode(b[2])} (no memory switches are emulated)` }),
  },
];
