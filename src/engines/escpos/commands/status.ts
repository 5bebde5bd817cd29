/** Real-time commands and status replies (DLE EOT / ENQ / DC4, GS a, GS r, GS I, ESC u / v). */
import { arg, fixed, type LenFn } from '../../core/commands.ts';
import { hexByte } from '../../core/hex.ts';
import { asb, dleEot, gsI, gsRDrawer, gsRPaper } from '../status.ts';
import { DLE, ESC, GS, ch, type EscPosFamily } from './define.ts';

const dleEotLength: LenFn = (b, n) => (n < 3 ? 3 : b[2] === 7 || b[2] === 8 ? 4 : 3);
const dleDc4Length: LenFn = (b, n) => {
  if (n < 3) return 3;
  switch (b[2]) {
    case 1: return 5;
    case 2: return 5;
    case 3: return 8;
    case 7: return 4;
    case 8: return 10;
    default: return 3;
  }
};

export const STATUS: EscPosFamily = [
  {
    prefix: [DLE, 0x04], name: 'DLE EOT', summary: 'Transmit real-time status', length: dleEotLength,
    run(m, b) {
      const q = b[2];
      const v = dleEot(q, m.getContext());
      if (v === null) {
        if (q === 7 || q === 8) {
          m.reply(Uint8Array.of(0x12));
          return { text: `Transmit real-time status ${q} ${b[3]}` };
        }
        return { text: `Real-time status: invalid ${q}`, kind: 'malformed', error: `invalid real-time status request ${q}` };
      }
      m.reply(Uint8Array.of(v));
      const names = ['', 'printer', 'offline cause', 'error cause', 'roll paper sensor'];
      return { text: `Transmit real-time status: ${names[q]} (0x${hexByte(v)})` };
    },
  },
  { prefix: [DLE, 0x05], name: 'DLE ENQ', summary: 'Send real-time request to printer', length: fixed(3), run: (_m, b) => ({ text: `Real-time request to printer ${arg(b)}` }) },
  {
    prefix: [DLE, 0x14], name: 'DLE DC4', summary: 'Real-time functions (pulse, power-off, buzzer, status, clear buffers)', length: dleDc4Length,
    run(m, b) {
      switch (b[2]) {
        case 1: {
          const drawer = b[3] === 0 ? 1 : b[3] === 1 ? 2 : 0;
          if (!drawer) return { text: `Real-time pulse: invalid pin ${b[3]}`, kind: 'malformed', error: `invalid connector pin ${b[3]}` };
          m.emit({ type: 'drawerKick', drawer });
          return { text: `Generate pulse in real time: drawer ${drawer}, ${b[4] * 100} ms` };
        }
        case 2: return { text: 'Execute power-off sequence (ignored)' };
        case 3: return { text: 'Sound buzzer (not emulated)' };
        case 7: {
          m.reply(asb(m.getContext()));
          return { text: `Transmit specified status ${b[3]}` };
        }
        case 8: {
          if (m.layout.pageMode) m.layout.cancelPage();
          const discarded = m.layout.clearLine();
          m.reply(Uint8Array.of(0x37, 0x25, 0x00));
          return { text: `Clear buffers (${discarded} unprinted characters discarded)` };
        }
        default:
          return { text: `DLE DC4 function ${b[2]} unknown`, kind: 'unknown' };
      }
    },
  },
  {
    prefix: [GS, ch('a')], name: 'GS a', summary: 'Enable/disable Automatic Status Back', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      m.asbMask = n;
      if (n !== 0) {
        const now = asb(m.getContext());
        m.reply(now);
        m.lastAsb = now;
      } else {
        m.lastAsb = null;
      }
      return { text: n ? `Automatic Status Back enabled (mask 0x${hexByte(n)})` : 'Automatic Status Back disabled' };
    },
  },
  {
    prefix: [GS, ch('r')], name: 'GS r', summary: 'Transmit status', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const ctx = m.getContext();
      if (n === 1 || n === 49) m.reply(Uint8Array.of(gsRPaper(ctx)));
      else if (n === 2 || n === 50) m.reply(Uint8Array.of(gsRDrawer(ctx)));
      else if (n === 4 || n === 52) m.reply(Uint8Array.of(0));
      else return { text: `Transmit status ${n} (unknown)`, kind: 'malformed', error: `unknown status request ${n}` };
      return { text: `Transmit status: ${n === 1 || n === 49 ? 'paper sensor' : n === 2 || n === 50 ? 'drawer kick-out connector' : 'ink'}` };
    },
  },
  {
    prefix: [GS, ch('I')], name: 'GS I', summary: 'Transmit printer ID', length: fixed(3),
    run(m, b) {
      const n = arg(b);
      const reply = gsI(n, m.getContext());
      if (!reply) return { text: `Transmit printer ID ${n} (not supported)`, kind: 'malformed', error: `unsupported printer ID request ${n}` };
      m.reply(reply);
      return { text: `Transmit printer ID ${n}` };
    },
  },
  {
    prefix: [ESC, ch('u')], name: 'ESC u', summary: 'Transmit peripheral device status', length: fixed(3),
    run(m) {
      m.reply(Uint8Array.of(m.getContext().drawer1State === 'Closed' ? 0x01 : 0x00));
      return { text: 'Transmit peripheral device status' };
    },
  },
  {
    prefix: [ESC, ch('v')], name: 'ESC v', summary: 'Transmit paper sensor status', length: fixed(2),
    run(m) {
      const f = m.getContext().flags;
      m.reply(Uint8Array.of(f.isPaperOut ? 0x0c : f.isPaperNearEnd ? 0x03 : 0));
      return { text: 'Transmit paper sensor status' };
    },
  },
  { prefix: [GS, ch('j')], name: 'GS j', summary: 'Enable/disable Automatic Status Back for ink', length: fixed(3), run: (_m, b) => ({ text: `Automatic Status Back for ink ${arg(b) ? 'enabled' : 'disabled'}` }) },
];
