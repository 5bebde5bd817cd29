/**
 * ZPL parameter parsing. Parameters are separated by the delimiter (`,` unless changed by
 * ^CD); an empty or missing parameter takes the command's default, as on a Zebra. A value
 * that is out of range is reported (the field still prints with the default) rather than
 * silently used: `Params` collects the problems so the command's debug element names them.
 */

export type Orientation = 'N' | 'R' | 'I' | 'B';
export const ORIENTATIONS: readonly Orientation[] = ['N', 'R', 'I', 'B'];

export class Params {
  readonly values: string[];
  readonly problems: string[] = [];

  constructor(text: string, delimiter = ',') {
    this.values = text.length ? text.split(delimiter) : [];
  }

  /** The raw text of parameter `i` (trimmed), or '' when absent. */
  raw(i: number): string {
    return (this.values[i] ?? '').trim();
  }

  has(i: number): boolean {
    return this.raw(i) !== '';
  }

  /** An integer in [min, max]; the default when absent, or when invalid (reported). */
  int(i: number, name: string, def: number, min: number, max: number): number {
    const s = this.raw(i);
    if (s === '') return def;
    const n = Number(s);
    if (!/^[-+]?\d+(\.\d+)?$/.test(s) || !Number.isFinite(n)) {
      this.problems.push(`${name} '${s}' is not a number`);
      return def;
    }
    const v = Math.round(n);
    if (v < min || v > max) {
      this.problems.push(`${name} ${v} is out of range ${min}..${max}`);
      return Math.min(max, Math.max(min, v));
    }
    return v;
  }

  /** A decimal number in [min, max] (^BY ratio). */
  num(i: number, name: string, def: number, min: number, max: number): number {
    const s = this.raw(i);
    if (s === '') return def;
    const n = Number(s);
    if (!Number.isFinite(n)) {
      this.problems.push(`${name} '${s}' is not a number`);
      return def;
    }
    if (n < min || n > max) {
      this.problems.push(`${name} ${n} is out of range ${min}..${max}`);
      return Math.min(max, Math.max(min, n));
    }
    return n;
  }

  /** One of the accepted letters (case-insensitive); the default when absent or invalid. */
  choice<T extends string>(i: number, name: string, accepted: readonly T[], def: T): T {
    const s = this.raw(i).toUpperCase();
    if (s === '') return def;
    if ((accepted as readonly string[]).includes(s)) return s as T;
    this.problems.push(`${name} '${s}' is not one of ${accepted.join(', ')}`);
    return def;
  }

  /** Y/N flag. */
  yes(i: number, name: string, def: boolean): boolean {
    return this.choice(i, name, ['Y', 'N'] as const, def ? 'Y' : 'N') === 'Y';
  }

  orientation(i: number, def: Orientation): Orientation {
    return this.choice(i, 'orientation', ORIENTATIONS, def);
  }
}

/** Quarter turns clockwise of an orientation (N 0, R 90, I 180, B 270). */
export function quarterTurns(o: Orientation): 0 | 1 | 2 | 3 {
  return o === 'N' ? 0 : o === 'R' ? 1 : o === 'I' ? 2 : 3;
}

/**
 * An object name `d:o.x` with the drive (R: default) and extension (the command's default)
 * filled in, upper-cased: Zebra object names are case-insensitive.
 */
export function objectName(text: string, defaultExtension: string): string {
  let s = text.trim().toUpperCase();
  if (!/^[A-Z]:/.test(s)) s = `R:${s}`;
  if (!/\.[A-Z0-9*?]{1,3}$/.test(s)) s = `${s}.${defaultExtension}`;
  return s;
}

/** `*` and `?` wildcards of ^ID / ^HW object names, as a regular expression. */
export function wildcard(pattern: string): RegExp {
  const esc = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${esc}$`);
}
