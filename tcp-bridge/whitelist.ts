/**
 * TCP client whitelist matching. Entries come validated and normalised from the Worker
 * (IPv4/IPv6 addresses and CIDR ranges); the bridge still parses defensively and ignores
 * anything it cannot read. Enabled with no entries refuses every client.
 */
import ipaddr from 'ipaddr.js';

export interface WhitelistSpec {
  enabled: boolean;
  entries: string[];
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** `::ffff:1.2.3.4` -> `1.2.3.4`; strips an IPv6 zone; leaves unparsable input unchanged. */
export function normalizeClientAddress(address: string | undefined | null): string {
  if (!address) return 'unknown';
  try {
    const parsed = ipaddr.process(address);
    if (parsed.kind() === 'ipv6') {
      const v6 = parsed as ipaddr.IPv6;
      // Drop the zone id for matching and display (fe80::1%eth0 -> fe80::1).
      return new ipaddr.IPv6(v6.parts).toString();
    }
    return parsed.toString();
  } catch {
    return address;
  }
}

function parseEntry(entry: string): Range | null {
  const text = entry.trim();
  if (!text) return null;
  try {
    if (text.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return [addr, bits];
    }
    const addr = ipaddr.process(text);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

export interface CompiledWhitelist {
  enabled: boolean;
  /** Entries that could not be parsed (ignored). */
  invalid: string[];
  allows(clientAddress: string): boolean;
}

export function compileWhitelist(spec: WhitelistSpec | null | undefined): CompiledWhitelist {
  if (!spec || !spec.enabled) {
    return { enabled: false, invalid: [], allows: () => true };
  }
  const ranges: Range[] = [];
  const invalid: string[] = [];
  for (const entry of spec.entries ?? []) {
    const range = parseEntry(entry);
    if (range) ranges.push(range);
    else if (entry.trim()) invalid.push(entry);
  }
  return {
    enabled: true,
    invalid,
    allows(clientAddress: string): boolean {
      let addr: Address;
      try {
        addr = ipaddr.process(normalizeClientAddress(clientAddress));
      } catch {
        return false;
      }
      for (const [base, bits] of ranges) {
        if (base.kind() !== addr.kind()) continue;
        if ((addr as ipaddr.IPv4).match(base as ipaddr.IPv4, bits)) return true;
      }
      return false;
    },
  };
}
