/**
 * TCP whitelist entries (decisions.md): separated by commas or newlines, `#` starts a comment
 * running to the end of the line, each entry an IPv4/IPv6 address or CIDR range, IPv4-mapped
 * IPv6 normalised to IPv4. One implementation for the Worker (validation), the tcp-bridge
 * (matching) and the web UI (editing), on ipaddr.js.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type AddressRange = [Address, number];

export interface WhitelistProblem { line: number; entry: string; message: string }
/** `entries` are normalised (`::ffff:10.0.0.1` becomes `10.0.0.1`). */
export interface ParsedWhitelist { entries: string[]; problems: WhitelistProblem[] }

/** An address or CIDR range, or null when the text is neither. */
export function parseRange(entry: string): AddressRange | null {
  const text = entry.trim();
  // A zone (`fe80::1%eth0`) names an interface of one machine; client addresses never carry it.
  if (!text || text.includes('%')) return null;
  try {
    if (text.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return [addr, bits];
    }
    // isValidFourPartDecimal refuses the legacy forms ipaddr.js would otherwise accept (010.1, 1.2.3).
    if (!ipaddr.IPv6.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
    const addr = ipaddr.process(text);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

const formatRange = ([addr, bits]: AddressRange) =>
  bits === (addr.kind() === 'ipv4' ? 32 : 128) ? addr.toString() : `${addr.toString()}/${bits}`;

export function parseWhitelist(text: string): ParsedWhitelist {
  const entries: string[] = [];
  const problems: WhitelistProblem[] = [];
  text.split(/\r?\n/).forEach((rawLine, i) => {
    for (const part of rawLine.replace(/#.*$/, '').split(',')) {
      const entry = part.trim();
      if (!entry) continue;
      const range = parseRange(entry);
      if (range) entries.push(formatRange(range));
      else if (entry.includes('%')) problems.push({ line: i + 1, entry, message: `Line ${i + 1}: "${entry}" names an interface zone, which client addresses never carry; write the address without "%${entry.split('%')[1]}".` });
      else problems.push({ line: i + 1, entry, message: `Line ${i + 1}: "${entry}" is not an IPv4 or IPv6 address or CIDR range.` });
    }
  });
  return { entries, problems };
}

/** `::ffff:1.2.3.4` becomes `1.2.3.4`; an IPv6 zone is dropped; unparsable input is returned as is. */
export function normalizeClientAddress(address: string): string {
  try {
    const parsed = ipaddr.process(address);
    return parsed.kind() === 'ipv6' ? new ipaddr.IPv6((parsed as ipaddr.IPv6).parts).toString() : parsed.toString();
  } catch {
    return address;
  }
}

/** True when `ip` falls inside one of the ranges. */
export function isCoveredBy(ip: string, ranges: readonly AddressRange[]): boolean {
  let addr: Address;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  return ranges.some(([base, bits]) => base.kind() === addr.kind() && addr.match(base as never, bits));
}

export function isCovered(ip: string, entries: readonly string[]): boolean {
  return isCoveredBy(ip, entries.map(parseRange).filter((r): r is AddressRange => r !== null));
}
