/**
 * Printer configuration: commands a real printer takes but that change nothing on the label
 * the emulator draws (serial port, memory, clock...), reset, time and date formats, soft fonts.
 */
import { defaultSetup } from '../state.ts';
import { configOnly, control, none, type EplFamily } from './define.ts';

const format = (name: 'TT' | 'TD', summary: string, what: 'timeFormat' | 'dateFormat', label: string) =>
  control({
    name, summary, group: 'config', takesParameters: true,
    parse: (rest) => rest.trim(),
    run(session, f) {
      session.setup[what] = f;
      return { text: `${label} ${f || 'default'}` };
    },
  });

const reset = (name: '@' | '^@') =>
  control({
    name, summary: 'Reset printer', group: 'config', takesParameters: false, parse: none,
    run(session) {
      session.setup = defaultSetup();
      session.clearBuffer();
      return { text: 'Reset printer (label settings back to defaults)' };
    },
  });

const notPrinted = (name: 'U' | 'UB', summary: string) =>
  control({ name, summary, group: 'config', takesParameters: false, parse: none, run: () => ({ text: `${summary} (not printed by the emulator)` }) });

const softFont = (name: 'ES' | 'EK', summary: string) =>
  control({
    name, summary, group: 'config', takesParameters: true, parse: none,
    run: () => ({ refused: 'soft fonts are not emulated', unsupported: true }),
  });

export const CONFIG: EplFamily = [
  configOnly('i', 'Asian character set selection', 'config'),
  configOnly('TS', 'Set real time clock', 'config'),
  format('TT', 'Define time format', 'timeFormat', 'Time format'),
  format('TD', 'Define date format', 'dateFormat', 'Date format'),
  configOnly('Y', 'Serial port setup', 'config'),
  configOnly('r', 'Double buffer mode', 'config'),
  configOnly('W', 'Windows mode', 'config'),
  configOnly('H', 'Heat/contrast adjustment', 'config'),
  configOnly('M', 'Memory allocation', 'config'),
  configOnly('oR', 'Character substitution (euro)', 'config'),
  configOnly('oE', 'Line mode font substitution', 'config'),
  configOnly('oH', 'Macro PDF offset', 'config'),
  configOnly('oM', 'Disable initial esc sequence feed', 'config'),
  configOnly('oB', 'Cancel auto bar code optimisation', 'config'),
  configOnly('oW', 'Custom print width', 'config'),
  configOnly('oY', 'Print speed (Japanese models)', 'config'),
  configOnly('xa', 'Auto sense', 'config', false),
  configOnly('AUTOFR', 'Automatic form printing', 'config', false),
  configOnly('OEPL1', 'Set printer to EPL mode', 'config', false),
  configOnly('UA', 'Enable form and graphics memory reporting', 'config', false),
  reset('@'),
  reset('^@'),
  control({
    name: '^default', summary: 'Restore factory defaults', group: 'config', takesParameters: false, parse: none,
    run(session) {
      session.setup = defaultSetup();
      return { text: 'Factory defaults restored' };
    },
  }),
  notPrinted('U', 'Print configuration label'),
  notPrinted('UB', 'Generate test label'),
  softFont('ES', 'Store soft font'),
  softFont('EK', 'Delete soft font'),
];
