/** Host queries and printer control: control commands act at once, even inside a format. */
import type { ZplMachine } from '../machine.ts';
import { configurationLabel, configurationLines, hardwareAddress, hostIdentification, hostMemory, serialNumber, type ConfigurationInfo } from '../replies.ts';
import { ok, type ZplCommand } from './types.ts';

export const HOST_COMMANDS: ZplCommand[] = [
  {
    ids: ['~HS'],
    summary: 'Host Status Return',
    run: (m) => {
      m.reply(m.hostStatus());
      return ok('Host status sent');
    },
  },
  {
    ids: ['~HI'],
    summary: 'Host Identification',
    run: (m) => {
      m.reply(hostIdentification(m.identity));
      return ok('Identification sent');
    },
  },
  {
    ids: ['~HM'],
    summary: 'Host RAM Status',
    run: (m) => {
      m.reply(hostMemory(m.identity, m.capacityBytes, m.usedMemoryBytes()));
      return ok('Memory status sent');
    },
  },
  {
    ids: ['~HQ'],
    summary: 'Host Query',
    run: (m, p) => {
      const what = p.raw(0).toUpperCase();
      switch (what) {
        case 'ES':
          m.reply(m.extendedStatus());
          return ok('Printer status (errors and warnings) sent');
        case 'HA':
          m.reply(hardwareAddress(m.identity));
          return ok('Hardware address sent');
        case 'SN':
          m.reply(serialNumber(m.identity));
          return ok('Serial number sent');
        default:
          return { text: `Host query ${what}`, kind: 'malformed', error: `~HQ${what} is not emulated (ES, HA and SN are)` };
      }
    },
  },
  {
    ids: ['^HH'],
    summary: 'Configuration Label Return',
    run: (m) => {
      m.reply(configurationLabel(configuration(m)));
      return ok('Configuration sent');
    },
  },
  {
    ids: ['~WC'],
    summary: 'Print Configuration Label',
    run: (m) => {
      const printed = m.printLines(['PRINTER CONFIGURATION', '', ...configurationLines(configuration(m))]);
      return ok(printed ? 'Configuration label printed' : 'Configuration label not printed (job limit)');
    },
  },
  {
    ids: ['~JA'],
    summary: 'Cancel All',
    run: (m) => {
      m.cancelAll();
      return ok('Format in progress cancelled');
    },
  },
];

/** What the configuration label shows, from the session's settings and the printer. */
function configuration(m: ZplMachine): ConfigurationInfo {
  const s = m.settings;
  const ctx = m.getContext();
  return {
    identity: m.identity,
    darkness: s.darkness,
    printWidth: s.printWidth ?? ctx.widthInDots,
    labelLength: s.labelLength ?? ctx.heightInDots ?? 0,
    printMode: s.printMode,
    thermalTransfer: s.mediaType === 'T',
    continuousMedia: s.mediaTracking === 'N',
    formatPrefix: String.fromCharCode(m.prefixes.format),
    controlPrefix: String.fromCharCode(m.prefixes.control),
    delimiter: String.fromCharCode(m.prefixes.delimiter),
    labelTop: s.labelTop,
    leftPosition: s.labelShift,
    speed: s.printSpeed,
  };
}
