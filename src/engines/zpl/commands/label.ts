/** Label layout, media and printer settings (^LH, ^LL, ^PW, ^PO, ^MM, ~SD, …). */
import { checked, MAX_DOTS, setting, type ZplCommand } from './types.ts';

export const LABEL_COMMANDS: ZplCommand[] = [
  {
    ids: ['^LH'],
    summary: 'Label Home',
    run: (m, p) => {
      m.settings.homeX = p.int(0, 'x', 0, 0, MAX_DOTS);
      m.settings.homeY = p.int(1, 'y', 0, 0, MAX_DOTS);
      return checked(p, `Label home ${m.settings.homeX},${m.settings.homeY}`);
    },
  },
  {
    ids: ['^LT'],
    summary: 'Label Top',
    run: (m, p) => {
      m.settings.labelTop = p.int(0, 'label top', 0, -120, 120);
      return checked(p, `Label top ${m.settings.labelTop}`);
    },
  },
  {
    ids: ['^LS'],
    summary: 'Label Shift',
    run: (m, p) => {
      m.settings.labelShift = p.int(0, 'shift left', 0, -9999, 9999);
      return checked(p, `Label shift ${m.settings.labelShift}`);
    },
  },
  {
    ids: ['^LL'],
    summary: 'Label Length',
    run: (m, p) => {
      m.settings.labelLength = p.int(0, 'label length', 1225, 1, MAX_DOTS);
      return checked(p, `Label length ${m.settings.labelLength} dots`);
    },
  },
  {
    ids: ['^PW'],
    summary: 'Print Width',
    run: (m, p) => {
      m.settings.printWidth = p.int(0, 'print width', m.getContext().widthInDots, 2, MAX_DOTS);
      return checked(p, `Print width ${m.settings.printWidth} dots`);
    },
  },
  {
    ids: ['^PO'],
    summary: 'Print Orientation',
    run: (m, p) => {
      m.settings.inverted = p.choice(0, 'orientation', ['N', 'I'] as const, 'N') === 'I';
      return checked(p, m.settings.inverted ? 'Print inverted (180 degrees)' : 'Print normal');
    },
  },
  {
    ids: ['^PM'],
    summary: 'Printing Mirror Image of Label',
    run: (m, p) => {
      m.settings.mirrored = p.yes(0, 'mirror image', false);
      return checked(p, m.settings.mirrored ? 'Print the mirror image of the label' : 'Print normal (not mirrored)');
    },
  },
  {
    ids: ['^LR'],
    summary: 'Label Reverse Print',
    run: (m, p) => {
      m.settings.reverseAll = p.yes(0, 'reverse', false);
      return checked(p, m.settings.reverseAll ? 'Every field reversed' : 'Fields printed normally');
    },
  },
  setting(['^MM'], 'Print Mode', (m, p) => {
    m.settings.printMode = p.choice(0, 'mode', ['T', 'P', 'R', 'A', 'C', 'D', 'F', 'L', 'U', 'K'] as const, 'T');
    return `Print mode ${m.settings.printMode}`;
  }),
  setting(['^MN'], 'Media Tracking', (m, p) => {
    m.settings.mediaTracking = p.choice(0, 'media', ['N', 'Y', 'W', 'M', 'A', 'V'] as const, 'Y');
    return `Media tracking ${m.settings.mediaTracking}`;
  }),
  setting(['^MT'], 'Media Type', (m, p) => {
    m.settings.mediaType = p.choice(0, 'media type', ['T', 'D'] as const, 'D');
    return m.settings.mediaType === 'T' ? 'Thermal transfer media' : 'Direct thermal media';
  }),
  setting(['^MD'], 'Media Darkness', (m, p) => {
    m.settings.darkness = Math.max(0, Math.min(30, 10 + p.num(0, 'darkness', 0, -30, 30)));
    return `Darkness ${m.settings.darkness}`;
  }),
  setting(['~SD'], 'Set Darkness', (m, p) => {
    m.settings.darkness = p.int(0, 'darkness', 10, 0, 30);
    return `Darkness ${m.settings.darkness}`;
  }),
  setting(['^PR'], 'Print Rate', (m, p) => {
    const speed = p.raw(0).toUpperCase();
    const named: Record<string, number> = { A: 2, B: 3, C: 4, D: 6, E: 8, F: 10, G: 12, H: 14 };
    m.settings.printSpeed = named[speed] ?? p.int(0, 'print speed', 6, 1, 14);
    return `Print speed ${m.settings.printSpeed} ips`;
  }),
  setting(['^MU'], 'Set Units of Measurement', (_m, p) => {
    const u = p.choice(0, 'units', ['D', 'I', 'M'] as const, 'D');
    if (u !== 'D') p.problems.push('units other than dots (D) are not emulated: values are read as dots');
    return `Units ${u}`;
  }),
  setting(['^JU'], 'Configuration Update'),
  setting(['^JZ'], 'Reprint After Error'),
  setting(['^JM'], 'Set Dots per Millimeter'),
  setting(['^JJ'], 'Set Auxiliary Port'),
  setting(['^JT'], 'Head Test Interval'),
  setting(['^ML'], 'Maximum Label Length'),
  setting(['^MF'], 'Media Feed'),
  setting(['^MP'], 'Mode Protection'),
  setting(['^MW'], 'Modify Head Cold Warning'),
  setting(['^PF'], 'Slew Given Number of Dot Rows'),
  setting(['^PH', '~PH'], 'Slew to Home Position'),
  setting(['^PP', '~PP'], 'Programmable Pause', (m) => {
    m.memory.paused = true;
    return 'Printer paused (until ~PS)';
  }),
  setting(['~PS'], 'Print Start', (m) => {
    m.memory.paused = false;
    return 'Printer resumed (print start)';
  }),
  setting(['~JR'], 'Power On Reset'),
  setting(['^JB', '~JB'], 'Initialize Flash Memory'),
  setting(['~JC'], 'Set Media Sensor Calibration'),
  setting(['~JL'], 'Set Label Length (calibrate)'),
  setting(['~TA'], 'Tear-off Adjust Position'),
  setting(['^KL'], 'Define Language'),
  setting(['^KN'], 'Define Printer Name'),
  setting(['^KP'], 'Define Password'),
  setting(['^SZ'], 'Set ZPL'),
  setting(['^SC'], 'Set Serial Communications'),
  setting(['^SS'], 'Set Media Sensors'),
  setting(['^SE'], 'Select Encoding Table'),
  setting(['^NC'], 'Select the Primary Network Device'),
  setting(['^NI'], 'Network ID Number'),
  setting(['~NC'], 'Network Connect'),
  setting(['~NT'], 'Set Currently Connected Printer Transparent'),
  setting(['^CM'], 'Change Memory Letter Designation'),
  setting(['~RO'], 'Reset Advanced Counter'),
  setting(['~JD'], 'Enable Communications Diagnostics'),
  setting(['~JE'], 'Disable Diagnostics'),
  setting(['~JS'], 'Change Backfeed Sequence'),
  setting(['^XB'], 'Suppress Backfeed'),
  setting(['^MC'], 'Map Clear'),
  setting(['^MI'], 'Set Maintenance Information Message'),
  setting(['^PA'], 'Advanced Text Properties'),
  setting(['^FE'], 'Field Encoding'),
  setting(['^JW'], 'Set Ribbon Tension'),
  setting(['^KD'], 'Select Date and Time Format'),
  setting(['^SO'], 'Set Offset (real-time clock)'),
  setting(['^SQ'], 'Halt ZebraNet Alert'),
  setting(['^SX'], 'Set ZebraNet Alert'),
  setting(['^TO'], 'Transfer Object'),
  setting(['^IS'], 'Image Save (the label is not kept as an image)'),
  setting(['~RV', '^RF', '^RS', '^RW', '^RB', '^RR', '^RT', '^RZ', '^WT', '^HL', '~HL'], 'RFID (no RFID encoder: accepted, nothing encoded)'),
];
