import ipaddr from 'ipaddr.js';

/**
 * Whether the Worker may send a request to a URL a workspace gave it (webhooks, cloud-print
 * poll URLs): extensions.md "Boundaries". Unless ALLOW_PRIVATE_TARGETS is on, a URL whose host
 * is a loopback, private, link-local or otherwise non-public address, a name that only means
 * something on the local network, or the deployment's own host is refused, so that nobody
 * can make the deployment call its own services or its network's machines.
 *
 * The check is on the URL as written (the WHATWG parser has already turned `2130706433`,
 * `0x7f.1` and `[::ffff:127.0.0.1]` into their canonical addresses). A public name that
 * resolves to a private address is not caught here: on Cloudflare a Worker's fetch cannot reach
 * private networks anyway (docs/decisions.md "Outbound URLs").
 */
export const ALLOW_PRIVATE_TARGETS = 'ALLOW_PRIVATE_TARGETS';

export interface OutboundPolicy {
  /** ALLOW_PRIVATE_TARGETS: local development, where receivers run on the same machine. */
  allowPrivateTargets: boolean;
  /** Host names that are the deployment itself (PUBLIC_HOST, the host the request came to). */
  ownHosts: readonly string[];
}

/** Suffixes of names that only resolve inside a local network (RFC 6761, 6762, 8375 and common use). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain', '.lan'];

/** Why `url` may not be called, or null when it may. The reason names the setting. */
export function outboundUrlProblem(url: string, policy: OutboundPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The URL is not valid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'The URL must be http:// or https://';
  if (parsed.username || parsed.password) return 'The URL must not carry a user name or password';
  if (policy.allowPrivateTargets) return null;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  const refused = (what: string) => `${what} is not allowed as a target while ${ALLOW_PRIVATE_TARGETS} is off`;
  const bare = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) {
    const address = ipaddr.process(bare);
    const range = address.range();
    if (range !== 'unicast') return refused(`The address ${address.toString()} (${range})`);
  } else {
    if (host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return refused(`The local name ${host}`);
    if (!host.includes('.')) return refused(`The single-label name ${host}`);
  }
  const own = policy.ownHosts.map((h) => h.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')).filter(Boolean);
  if (own.includes(bare)) return refused(`This deployment's own host ${host}`);
  return null;
}
