/**
 * Parameter parsing for EPL2 command lines: comma-separated parameters, quoted strings with
 * backslash escapes (`\"` and `\\`), and the DATA field of A / B / b, which is a sequence of
 * quoted literals, variables (`V00`..`V99`), counters (`C0`..`C9`), time (`TT`) and date (`TD`).
 */

export type DataPart =
  | { kind: 'literal'; text: string }
  | { kind: 'variable'; index: number }
  | { kind: 'counter'; index: number }
  | { kind: 'time' }
  | { kind: 'date' };

export interface SplitResult {
  /** Parameters before the data field, trimmed. */
  params: string[];
  /** The DATA field (parsed), when the line has a quoted or variable part after the params. */
  data: DataPart[] | null;
  /** Parse problem, e.g. an unterminated quote. */
  error?: string;
}

/**
 * Split `rest` (the line after the command letters) into `count` leading parameters followed
 * by a data field. Parameters may not contain quotes; the data field begins at parameter
 * index `count` (or at the first quote, whichever comes first).
 */
export function splitWithData(rest: string, count: number): SplitResult {
  const params: string[] = [];
  let i = 0;
  while (params.length < count) {
    if (i >= rest.length) break;
    if (rest[i] === '"') break;
    const comma = rest.indexOf(',', i);
    const quote = rest.indexOf('"', i);
    if (quote >= 0 && (comma < 0 || quote < comma)) {
      // A quote inside a parameter: the data begins here (missing comma).
      const p = rest.slice(i, quote).trim();
      if (p !== '') params.push(p);
      i = quote;
      break;
    }
    if (comma < 0) {
      params.push(rest.slice(i).trim());
      i = rest.length;
      break;
    }
    params.push(rest.slice(i, comma).trim());
    i = comma + 1;
  }
  if (i >= rest.length) return { params, data: null };
  const parsed = parseData(rest.slice(i));
  return { params, data: parsed.parts, error: parsed.error };
}

/** Parse a DATA field: `"fixed"V00"more"C0TTTD` (commas between parts are tolerated). */
export function parseData(s: string): { parts: DataPart[]; error?: string } {
  const parts: DataPart[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '"') {
      let text = '';
      let j = i + 1;
      let closed = false;
      while (j < s.length) {
        const c = s[j];
        if (c === '\\' && j + 1 < s.length) {
          text += s[j + 1];
          j += 2;
          continue;
        }
        if (c === '"') {
          closed = true;
          j++;
          break;
        }
        text += c;
        j++;
      }
      parts.push({ kind: 'literal', text });
      if (!closed) return { parts, error: 'unterminated quoted string' };
      i = j;
      continue;
    }
    if (ch === ' ' || ch === ',' || ch === '\t') {
      i++;
      continue;
    }
    const rest = s.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^V(\d{1,2})/.exec(rest))) {
      parts.push({ kind: 'variable', index: Number(m[1]) });
      i += m[0].length;
    } else if ((m = /^C(\d)/.exec(rest))) {
      parts.push({ kind: 'counter', index: Number(m[1]) });
      i += m[0].length;
    } else if (rest.startsWith('TT')) {
      parts.push({ kind: 'time' });
      i += 2;
    } else if (rest.startsWith('TD')) {
      parts.push({ kind: 'date' });
      i += 2;
    } else {
      return { parts, error: `unexpected "${rest.slice(0, 12)}" in data field` };
    }
  }
  return { parts };
}

/** Integer parameter: returns NaN when absent or not an integer. */
export function int(p: string | undefined): number {
  if (p === undefined) return NaN;
  const t = p.trim();
  if (!/^[+-]?\d{1,9}$/.test(t)) return NaN;
  return Number(t);
}

/** Split plain comma parameters (no quotes expected). */
export function splitParams(rest: string): string[] {
  if (rest.trim() === '') return [];
  return rest.split(',').map((s) => s.trim());
}

/** A quoted name parameter like `"LOGO"` (quotes optional). Returns null when malformed. */
export function quotedName(s: string): string | null {
  const t = s.trim();
  const m = /^"([^"]*)"$/.exec(t);
  if (m) return m[1];
  if (/^[^",\s]+$/.test(t)) return t;
  return null;
}
