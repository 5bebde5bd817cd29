/** Single-byte controls (LF, CR, HT, FF, CAN, BEL, BS) and the unknown-command entries. */
import { fixed } from '../../core/commands.ts';
import { hexByte } from '../../core/hex.ts';
import { DLE, ESC, FS, GS, type EscPosCommand, type EscPosFamily } from './define.ts';

export const CONTROLS: EscPosFamily = [
  {
    prefix: [0x0a], name: 'LF', summary: 'Print and line feed', length: fixed(1),
    run(m) {
      m.layout.printLine(m.modes.lineSpacing);
      return { text: 'Print and line feed' };
    },
  },
  { prefix: [0x0d], name: 'CR', summary: 'Print and carriage return', length: fixed(1), run: () => ({ text: 'Carriage return (ignored: no auto line feed)' }) },
  {
    prefix: [0x09], name: 'HT', summary: 'Horizontal tab', length: fixed(1),
    run(m) {
      m.layout.tab();
      return { text: 'Horizontal tab' };
    },
  },
  {
    prefix: [0x0c], name: 'FF', summary: 'Print and return to standard mode (page mode) / print buffer', length: fixed(1),
    run(m) {
      if (m.layout.pageMode) {
        m.layout.printPage();
        m.layout.leavePageMode();
        return { text: 'Print page and return to standard mode' };
      }
      if (m.layout.hasPendingData) m.layout.printLine(0);
      return { text: 'Form feed (print buffer)' };
    },
  },
  {
    prefix: [0x18], name: 'CAN', summary: 'Cancel print data in page mode', length: fixed(1),
    run(m) {
      if (m.layout.pageMode) {
        m.layout.cancelPage();
        return { text: 'Cancel print data in page mode' };
      }
      return { text: 'Cancel (ignored in standard mode)' };
    },
  },
  {
    prefix: [0x07], name: 'BEL', summary: 'Buzzer / drive peripheral device 1', length: fixed(1),
    run(m) {
      m.emit({ type: 'drawerKick', drawer: 1 });
      return { text: 'Buzzer / drive peripheral device 1 (drawer 1)' };
    },
  },
  { prefix: [0x08], name: 'BS', summary: 'Backspace', length: fixed(1), run: () => ({ text: 'Backspace (ignored)' }) },
  // Epson units skip NUL between characters (receiptline sends one before every Thai cell).
  { prefix: [0x00], name: 'NUL', summary: 'Null (ignored by the printer)', length: fixed(1), run: () => ({ text: 'NUL (ignored)' }) },
];

/** A control byte no command starts with. */
export const UNKNOWN_CONTROL: EscPosCommand = {
  prefix: [0x00], name: 'unknown', summary: 'Unknown control byte', length: fixed(1),
  run: (_m, b) => ({ text: `Unknown control byte 0x${hexByte(b[0])}`, kind: 'unknown', error: `unknown control byte 0x${hexByte(b[0])}` }),
};

/** A prefix byte (ESC, GS, FS, DLE) followed by a byte no command uses. */
export const UNKNOWN_PREFIXED: EscPosCommand = {
  prefix: [ESC, 0x00], name: 'unknown', summary: 'Unknown command', length: fixed(2),
  run(_m, b) {
    const prefix = b[0] === ESC ? 'ESC' : b[0] === GS ? 'GS' : b[0] === FS ? 'FS' : b[0] === DLE ? 'DLE' : '?';
    return { text: `Unknown command ${prefix} 0x${hexByte(b[1])}`, kind: 'unknown' };
  },
};
