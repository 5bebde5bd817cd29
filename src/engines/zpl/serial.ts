/**
 * Serialized fields: ^SN (the last number in the data steps by an increment per label) and
 * ^SF (a mask says, character by character, how the data counts: D decimal, H hex, O octal,
 * A letters, N letters and digits, % not counted).
 */
import type { Serialization } from './state.ts';

/** The field text `steps` labels after `text`. */
export function nextSerial(text: string, s: Serialization, steps: number): string {
  return s.kind === 'SN' ? serialNumber(text, s.increment * steps, s.leadingZeros) : serialMask(text, s.mask, s.increment, steps);
}

/** ^SN: the last run of digits changes by `delta`; with leading zeros it keeps its width. */
function serialNumber(text: string, delta: number, leadingZeros: boolean): string {
  const m = /(\d+)(?!.*\d)/.exec(text);
  if (!m) return text;
  const digits = m[1];
  const value = BigInt(digits) + BigInt(delta);
  let out = (value < 0n ? -value : value).toString();
  if (out.length < digits.length) out = leadingZeros ? out.padStart(digits.length, '0') : out.padStart(digits.length, ' ');
  return text.slice(0, m.index) + out + text.slice(m.index + digits.length);
}

const ALPHABETS: Record<string, string> = {
  D: '0123456789',
  H: '0123456789ABCDEF',
  O: '01234567',
  A: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  N: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
};

/**
 * ^SF: the mask is aligned with the end of the data; the increment string (aligned the
 * same way) is added `steps` times with carries between counted characters.
 */
function serialMask(text: string, mask: string, increment: string, steps: number): string {
  const chars = [...text];
  const m = mask.toUpperCase();
  let out = chars;
  for (let s = 0; s < steps; s++) out = addOnce(out, m, increment.toUpperCase());
  return out.join('');
}

function addOnce(chars: string[], mask: string, inc: string): string[] {
  const out = chars.slice();
  let carry = 0;
  for (let k = 1; k <= mask.length && k <= out.length; k++) {
    const kind = mask[mask.length - k];
    const alphabet = ALPHABETS[kind];
    if (!alphabet) continue;
    const i = out.length - k;
    const cur = alphabet.indexOf(out[i].toUpperCase());
    const add = k <= inc.length ? Math.max(0, alphabet.indexOf(inc[inc.length - k])) : 0;
    const sum = Math.max(0, cur) + add + carry;
    out[i] = alphabet[sum % alphabet.length];
    carry = Math.floor(sum / alphabet.length);
  }
  return out;
}
