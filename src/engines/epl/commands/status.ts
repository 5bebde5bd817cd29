/** Status and information requests: configuration, error reporting, listings. */
import { display } from '../display.ts';
import { immediateErrorReport, listingReply } from '../replies.ts';
import { configOnly, control, none, refuse, type CommandGroup, type EplFamily } from './define.ts';

/** A request the printer answers with a reply (no parameters). */
const answered = (name: string, summary: string, group: CommandGroup, text: string, reply: (s: import('../session.ts').EplSession) => Uint8Array) =>
  control({
    name, summary, group, takesParameters: false, parse: none,
    run(session) {
      session.reply(reply(session));
      return { text };
    },
  });

export const STATUS: EplFamily = [
  answered('UQ', 'Configuration information request', 'status', 'Configuration information request (answered)', (s) => s.configReply()),
  answered('UP', 'Print configuration and reply', 'status', 'Print configuration (answered, label not printed)', (s) => s.configReply()),
  answered('UF', 'Form information request', 'status', 'Form information (answered)', (s) => listingReply('Forms', [...s.forms.keys()], s.formBytes())),
  answered('UG', 'Graphics information request', 'status', 'Graphics information (answered)', (s) => listingReply('Graphics', [...s.graphics.keys()], s.graphicBytes())),
  answered('UE', 'External font information request', 'status', 'External font information (answered)', () => listingReply('Fonts', [], 0)),
  answered('EI', 'List soft fonts', 'status', 'List soft fonts (answered, none stored)', () => listingReply('Fonts', [], 0)),
  control({
    name: 'US', summary: 'Enable error reporting', group: 'status', takesParameters: false, parse: none,
    run(session) {
      session.reporting.enabled = true;
      return { text: 'Error reporting enabled' };
    },
  }),
  control({
    name: 'UN', summary: 'Disable error reporting', group: 'status', takesParameters: false, parse: none,
    run(session) {
      session.reporting.enabled = false;
      return { text: 'Error reporting disabled' };
    },
  }),
  control({
    name: 'eR', summary: 'User defined error/status character', group: 'status', takesParameters: true,
    parse(rest) {
      const m = /^(.),?\s*(\d)?/.exec(rest);
      if (!m) return refuse('expected a character and a mode');
      const mode = m[2] === undefined ? 0 : Number(m[2]);
      return mode > 2 ? refuse('mode must be 0, 1 or 2') : { char: m[1], mode };
    },
    run(session, { char, mode }) {
      session.reporting.char = char;
      session.reporting.mode = mode;
      return { text: `Error/status character "${display(char)}", mode ${mode}` };
    },
  }),
  control({
    name: '^ee', summary: 'Immediate error report', group: 'status', takesParameters: false, parse: none,
    run(session) {
      const codes = session.takeErrorCodes();
      session.reply(immediateErrorReport(codes));
      return { text: `Immediate error report (answered ${codes.length ? [...new Set(codes)].join(',') : '00'})` };
    },
  }),
  configOnly('UI', 'Host prompts / codepage request', 'status'),
  configOnly('UM', 'Memory status request', 'status', false),
];
