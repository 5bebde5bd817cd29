/**
 * What a label's ZPL asks to print, read from its text independently of the engine: the text
 * of every text field and the data of every bar code field (after ^FH hex escapes), so a test
 * can check that each is printed and each code scans to its data.
 */

/** Where the field's ^FO / ^FT puts it (after ^LH), null when it names no origin. */
type Origin = { x: number; y: number } | null;
export interface TextField { kind: 'text'; text: string; origin: Origin }
export interface CodeField { kind: 'code'; command: string; params: string; data: string; origin: Origin }
export type Field = TextField | CodeField;

const GRAPHIC = /\^(GB|GC|GD|GE|GF|GS|XG|IM)/;

/** ^FH hex escapes: the indicator (default `_`) and two hex digits are one byte. */
function unhex(data: string, indicator: string): string {
  const re = new RegExp(`${indicator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([0-9A-Fa-f]{2})`, 'g');
  return data.replace(re, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Every field (^FD or ^FV … ^FS) of `zpl` with the field commands before its data. */
export function fieldsOf(zpl: string): Field[] {
  const out: Field[] = [];
  for (const chunk of zpl.split(/\^FS/i)) {
    const at = chunk.search(/\^F[DV]/i);
    if (at < 0) continue;
    const head = chunk.slice(0, at);
    // The field starts at its last ^FO / ^FT.
    const start = Math.max(head.lastIndexOf('^FO'), head.lastIndexOf('^FT'), 0);
    const commands = head.slice(start);
    const fh = /\^FH(.?)/.exec(commands);
    // Field data ends at the next command (a caret starts one wherever it stands).
    let data = chunk.slice(at + 3).split('^')[0];
    if (fh) data = unhex(data, fh[1] && fh[1] !== '^' ? fh[1] : '_');
    const at0 = /\^F[OT]\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)/.exec(commands);
    const origin = at0 ? { x: Number(at0[1]), y: Number(at0[2]) } : null;
    const code = /\^B(?!Y)([0-9A-Z])([^\^]*)/.exec(commands);
    if (code) out.push({ kind: 'code', command: `B${code[1]}`, params: code[2].trim(), data, origin });
    else if (!GRAPHIC.test(commands)) out.push({ kind: 'text', text: data, origin });
  }
  return out;
}
