/**
 * TCP client whitelist matching. Entries come validated and normalised from the Worker;
 * parsing and matching are the shared implementation (src/shared/whitelist.ts), and anything
 * unreadable is ignored. Enabled with no entries refuses every client.
 */
import { isCoveredBy, normalizeClientAddress as normalize, parseRange, type AddressRange } from '../src/shared/whitelist.ts';
import type { WhitelistSpec } from '../src/shared/bridge-protocol.ts';

/** `::ffff:1.2.3.4` -> `1.2.3.4`; strips an IPv6 zone; leaves unparsable input unchanged. */
export function normalizeClientAddress(address: string | undefined | null): string {
  return address ? normalize(address) : 'unknown';
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
  const ranges: AddressRange[] = [];
  const invalid: string[] = [];
  for (const entry of spec.entries ?? []) {
    const range = parseRange(entry);
    if (range) ranges.push(range);
    else if (entry.trim()) invalid.push(entry);
  }
  return { enabled: true, invalid, allows: (clientAddress) => isCoveredBy(normalizeClientAddress(clientAddress), ranges) };
}
