/**
 * Variables (V), counters (C), time (TT) and date (TD) fields: their values for the session,
 * formatting by field definition, and counter stepping between printed labels.
 */
import type { DataPart } from './params.ts';
import type { CounterDef, Justification, VariableDef } from './state.ts';

export class FieldStore {
  readonly variables = new Map<number, string>();
  readonly counters = new Map<number, string>();
  readonly variableDefs = new Map<number, VariableDef>();
  readonly counterDefs = new Map<number, CounterDef>();

  define(def: VariableDef | CounterDef): void {
    if (def.kind === 'variable') this.variableDefs.set(def.index, def);
    else this.counterDefs.set(def.index, def);
  }

  setValue(def: VariableDef | CounterDef, raw: string): void {
    if (def.kind === 'variable') this.variables.set(def.index, raw.slice(0, Math.max(0, def.maxLength)));
    else this.counters.set(def.index, raw.slice(0, Math.max(1, def.maxDigits)));
  }

  /** Advance every defined counter by its step (between labels of one P command). */
  stepCounters(): void {
    for (const def of this.counterDefs.values()) {
      const v = this.counters.get(def.index) ?? '';
      this.counters.set(def.index, stepValue(v, def.step, def.maxDigits));
    }
  }

  /** Expand a DATA field to the text printed now. */
  expand(parts: DataPart[], now: Date, timeFormat: string, dateFormat: string): string {
    let out = '';
    for (const p of parts) {
      switch (p.kind) {
        case 'literal':
          out += p.text;
          break;
        case 'variable': {
          const def = this.variableDefs.get(p.index);
          const v = this.variables.get(p.index) ?? '';
          out += def ? justify(v, def.maxLength, def.justification) : v;
          break;
        }
        case 'counter': {
          const def = this.counterDefs.get(p.index);
          const v = this.counters.get(p.index) ?? '';
          out += def ? justify(v, def.maxDigits, def.justification) : v;
          break;
        }
        case 'time':
          out += formatTime(now, timeFormat);
          break;
        case 'date':
          out += formatDate(now, dateFormat);
          break;
      }
    }
    return out;
  }
}

export function justify(value: string, width: number, j: Justification): string {
  if (j === 'N' || value.length >= width) return value;
  const pad = width - value.length;
  if (j === 'L') return value + ' '.repeat(pad);
  if (j === 'R') return ' '.repeat(pad) + value;
  const left = Math.floor(pad / 2);
  return ' '.repeat(left) + value + ' '.repeat(pad - left);
}

/**
 * Add `step` to the numeric tail of `value`, keeping leading zeros and any alphabetic prefix
 * ("A0009" + 1 = "A0010"); wraps within `maxDigits` like an odometer.
 */
export function stepValue(value: string, step: number, maxDigits: number): string {
  const m = /^(.*?)(\d+)(\s*)$/.exec(value);
  if (!m) return value;
  const [, prefix, digits, trail] = m;
  const width = digits.length;
  const limit = Math.max(1, Math.min(15, maxDigits - prefix.length));
  const mod = 10 ** Math.min(15, Math.max(width, limit));
  let n = (Number(digits) + step) % mod;
  if (n < 0) n += mod;
  let s = String(n);
  if (s.length < width) s = '0'.repeat(width - s.length) + s;
  return prefix + s + trail;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** TT: time as HH:MM (24 h) unless a TT format was set (tokens h, m, s, p). */
export function formatTime(d: Date, format: string): string {
  if (!format) return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
  return format
    .replace(/h/g, pad2(d.getHours()))
    .replace(/m/g, pad2(d.getMinutes()))
    .replace(/s/g, pad2(d.getSeconds()));
}

/** TD: date as MM/DD/YY unless a TD format was set (tokens mm/me/mn, dd, yy/y4). */
export function formatDate(d: Date, format: string): string {
  const months = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
  if (!format) return `${pad2(d.getMonth() + 1)}/${pad2(d.getDate())}/${pad2(d.getFullYear() % 100)}`;
  return format
    .replace(/y4/g, String(d.getFullYear()))
    .replace(/yy/g, pad2(d.getFullYear() % 100))
    .replace(/me/g, months[d.getMonth()])
    .replace(/mn|mm/g, pad2(d.getMonth() + 1))
    .replace(/dd/g, pad2(d.getDate()));
}
