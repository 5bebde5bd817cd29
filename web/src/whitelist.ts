/**
 * TCP whitelist entries: comma- or newline-separated IPv4/IPv6 addresses or CIDR ranges;
 * `#` starts a comment that runs to the end of the line. Pure functions (tested in Node).
 */

export interface WhitelistProblem { line: number; entry: string; message: string }
export interface ParsedWhitelist { entries: string[]; problems: WhitelistProblem[] }

function parseIpv4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0'))) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIpv6(s: string): bigint | null {
  let text = s;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  let tailWords: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.') && lastColon >= 0) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    tailWords = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const w of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(w)) return null;
      out.push(parseInt(w, 16));
    }
    return out;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return null;
  const words = [...head];
  const total = head.length + tail.length + tailWords.length;
  if (halves.length === 2) {
    if (total > 7) return null;
    for (let i = 0; i < 8 - total; i++) words.push(0);
  } else if (total !== 8) {
    return null;
  }
  words.push(...tail, ...tailWords);
  let v = 0n;
  for (const w of words) v = (v << 16n) | BigInt(w);
  return v;
}

export interface ParsedAddress { family: 4 | 6; value: bigint; prefix: number }

/** Parses an address or CIDR range; IPv4-mapped IPv6 addresses become IPv4. */
export function parseAddress(entry: string): ParsedAddress | null {
  const [addr, prefixText, ...rest] = entry.trim().split('/');
  if (rest.length || !addr) return null;
  let family: 4 | 6;
  let value: bigint | null;
  if (addr.includes(':')) {
    family = 6;
    value = parseIpv6(addr.replace(/^\[|\]$/g, ''));
  } else {
    family = 4;
    value = parseIpv4(addr);
  }
  if (value === null) return null;
  const bits = family === 4 ? 32 : 128;
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > bits) return null;
  }
  if (family === 6 && value >> 32n === 0xffffn) {
    return { family: 4, value: value & 0xffffffffn, prefix: Math.max(0, prefix - 96) };
  }
  return { family, value, prefix };
}

export function parseWhitelist(text: string): ParsedWhitelist {
  const entries: string[] = [];
  const problems: WhitelistProblem[] = [];
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const line = rawLine.replace(/#.*$/, '');
    for (const part of line.split(',')) {
      const entry = part.trim();
      if (!entry) continue;
      if (parseAddress(entry)) entries.push(entry);
      else problems.push({ line: i + 1, entry, message: `Line ${i + 1}: "${entry}" is not an IPv4 or IPv6 address or CIDR range.` });
    }
  });
  return { entries, problems };
}

/** True when `ip` falls inside one of the entries. */
export function isCovered(ip: string, entries: string[]): boolean {
  const a = parseAddress(ip);
  if (!a) return false;
  for (const e of entries) {
    const r = parseAddress(e);
    if (!r || r.family !== a.family) continue;
    const bits = BigInt(a.family === 4 ? 32 : 128);
    const shift = bits - BigInt(r.prefix);
    if (a.value >> shift === r.value >> shift) return true;
  }
  return false;
}

/** Appends an entry on its own line, keeping the existing text and comments. */
export function addEntry(text: string, entry: string): string {
  const trimmed = text.replace(/\s+$/, '');
  return trimmed ? `${trimmed}\n${entry}` : entry;
}
