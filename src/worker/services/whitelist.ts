import ipaddr from 'ipaddr.js';

/**
 * Whitelist entries (decisions.md): separated by commas or newlines, `#` starts a comment,
 * each entry an IPv4/IPv6 address or CIDR range; IPv4-mapped IPv6 is normalised to IPv4.
 */
export type WhitelistParse = { ok: true; entries: string[] } | { ok: false; invalid: string[] };

export function parseWhitelist(text: string): WhitelistParse {
  const entries: string[] = [];
  const invalid: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const content = line.split('#')[0];
    for (const raw of content.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const normalised = normaliseEntry(entry);
      if (normalised) entries.push(normalised);
      else invalid.push(entry);
    }
  }
  return invalid.length ? { ok: false, invalid } : { ok: true, entries };
}

function normaliseEntry(entry: string): string | null {
  try {
    if (entry.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(entry);
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return `${(addr as ipaddr.IPv6).toIPv4Address().toString()}/${bits - 96}`;
      }
      return `${addr.toString()}/${bits}`;
    }
    if (!ipaddr.isValid(entry)) return null;
    return ipaddr.process(entry).toString();
  } catch {
    return null;
  }
}
