/**
 * Readiness (extensions.md "Consistency and readiness"): the deployment is ready once its
 * migrations are applied, the printers file `npm start` declared (PRINTERS_FILE_DIGEST) is
 * applied, and the shared bridge is connected with every listener it was given reported bound
 * (or failed: such a printer shows `Error`, the service itself is up). A deployment without a
 * shared bridge secret has no shared bridge to wait for.
 */
import type { Env } from '../env.ts';
import { latestMigrationApplied } from '../data/schema-version.ts';
import { bridgeHub } from './notify.ts';

export type Readiness = { ready: true } | { ready: false; waitingFor: string[] };

export async function readiness(env: Env): Promise<Readiness> {
  const [migrated, hub] = await Promise.all([latestMigrationApplied(env.DB), bridgeHub(env, null).readiness()]);
  const waitingFor: string[] = [];
  if (!migrated) waitingFor.push('migrations');
  const expectedFile = env.PRINTERS_FILE_DIGEST?.trim() || null;
  if (expectedFile !== null && hub.declaredFileDigest !== expectedFile) waitingFor.push('printers file');
  if (env.BRIDGE_SECRET) {
    if (!hub.bridgeConnected) waitingFor.push('shared bridge');
    else if (!hub.listenersBound) waitingFor.push('listeners');
  }
  return waitingFor.length ? { ready: false, waitingFor } : { ready: true };
}

/** The digest `npm start` and the apply route agree on: SHA-256 hex of the request body. */
export async function printersFileDigest(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
