import type { Env } from '../env.ts';
import { hashToken, timingSafeEqual } from '../auth/workspace-token.ts';
import { findBridgeByTokenHash } from '../data/bridges.ts';

/**
 * Who is calling an internal route: the deployment's shared bridge (BRIDGE_SECRET; also
 * `npm start` applying a config file) or one workspace's bridge (its BRIDGE_TOKEN).
 */
export type BridgeCaller = { kind: 'shared' } | { kind: 'site'; bridgeId: string; workspaceId: string };

/** Bridge tokens are told apart from the shared secret by this prefix. */
export const BRIDGE_TOKEN_PREFIX = 'ssb_';

/**
 * Headers the Worker sets (never trusted from the client: the internal routes overwrite
 * them) when it hands a bridge's request to a Durable Object.
 */
export const BRIDGE_HEADERS = {
  bridgeId: 'x-slipstream-bridge-id',
  remoteAddress: 'x-slipstream-bridge-remote',
  version: 'x-slipstream-bridge-version',
} as const;

/**
 * Token → bridge, cached per isolate for a short while: every TCP connection without a warm
 * spare upgrades a session WebSocket, and a D1 read each time would put D1 on the printing
 * path. A revoked token stops working within this time (the hub disconnects the bridge at
 * once; this bounds only sessions already being opened).
 */
const CACHE_MS = 3000;
const cache = new Map<string, { caller: BridgeCaller | null; until: number }>();

/** `fresh`: skip the cache (the control channel: rare, and must never outlive a revoke). */
export async function authenticateBridge(env: Env, bearer: string, opts: { fresh?: boolean } = {}): Promise<BridgeCaller | null> {
  if (!bearer) return null;
  if (env.BRIDGE_SECRET && timingSafeEqual(bearer, env.BRIDGE_SECRET)) return { kind: 'shared' };
  if (!bearer.startsWith(BRIDGE_TOKEN_PREFIX)) return null;
  const hash = await hashToken(bearer);
  const hit = cache.get(hash);
  if (!opts.fresh && hit && hit.until > Date.now()) return hit.caller;
  const row = await findBridgeByTokenHash(env.DB, hash);
  const caller: BridgeCaller | null = row ? { kind: 'site', bridgeId: row.id, workspaceId: row.workspace_id } : null;
  if (cache.size > 10_000) cache.clear();
  cache.set(hash, { caller, until: Date.now() + CACHE_MS });
  return caller;
}

/** Forget a revoked bridge at once in this isolate. */
export function forgetBridgeToken(tokenHash: string): void {
  cache.delete(tokenHash);
}

/** The bridge id a printer row must carry for this caller to serve it (null: shared). */
export const servedBridgeId = (caller: BridgeCaller): string | null => (caller.kind === 'site' ? caller.bridgeId : null);
