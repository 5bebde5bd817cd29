/** Human-readable names used in command descriptions. */

export const onOff = (v: number): string => ((v & 1) === 1 ? 'on' : 'off');

/**
 * A command's text for its one-byte parameter, made once per value: a repeated command then
 * gives the same string each time, which receipt/command-text.ts compares at no cost (a text
 * made again by a template is a new rope, flattened to be compared).
 */
export function textByByte(make: (n: number) => string): (n: number) => string {
  const made: (string | undefined)[] = new Array(256);
  return (n) => (n >= 0 && n < 256 ? (made[n] ??= make(n)) : make(n));
}

export function printModeText(n: number): string {
  const parts = [n & 1 ? 'Font B' : 'Font A'];
  if (n & 0x08) parts.push('emphasized');
  if (n & 0x10) parts.push('double height');
  if (n & 0x20) parts.push('double width');
  if (n & 0x80) parts.push('underline');
  return parts.join(', ');
}

export function fontName(n: number): string {
  switch (n) {
    case 0: case 48: return 'Font A';
    case 1: case 49: return 'Font B';
    case 2: case 50: return 'Font C';
    case 97: return 'Special font A';
    case 98: return 'Special font B';
    default: return `font ${n}`;
  }
}

export const CUT_NAMES: Record<number, string> = {
  0: 'Full cut', 48: 'Full cut', 1: 'Partial cut', 49: 'Partial cut',
  65: 'Feed and full cut', 66: 'Feed and partial cut',
  97: 'Feed to cut position and full cut', 98: 'Feed to cut position and partial cut',
  103: 'Reserve full cut', 104: 'Reserve partial cut',
};

export const GS_PAREN_NAMES: Record<string, string> = {
  A: 'Test print', C: 'Edit NV user memory', D: 'Enable/disable real-time command', E: 'Set user setup commands',
  H: 'Request transmission of response or status', K: 'Select print control method', L: 'Graphics', M: 'Customize printer control value',
  N: 'Select character effects', P: 'Page mode control', Q: 'Graphic drawing in page mode', k: '2D code', z: 'Set the print control (z)',
};

export const FS_PAREN_NAMES: Record<string, string> = {
  A: 'Select Kanji character style', C: 'Select character encode system', E: 'Receive enable/disable', L: 'Select label and black mark control',
  e: 'Enable/disable Automatic Status Back (extended status)',
};
