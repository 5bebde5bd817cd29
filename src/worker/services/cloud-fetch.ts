/**
 * What a cloud printer's poll cycles (cloudprnt/cloudprnt-cycle.ts,
 * server-direct-print/sdp-cycle.ts) need: the HTTP exchange with the server and the printer
 * object behind them (objects/cloud-poller.ts drives them).
 */
import type { Transport } from '../../shared/transports.ts';
import { outboundUrlProblem, type OutboundPolicy } from './outbound-url.ts';
import type { CloudPrinterState, PrinterDescription } from './cloudprnt/star-cloudprnt.ts';

/** How long the printer waits for any one answer of its server before it gives up on that poll. */
export const CLOUD_REQUEST_TIMEOUT_MS = 10_000;

/** A job the printer fetched, for the printer object's document path. */
export interface ArrivedJob {
  transport: Transport;
  /** What the engine runs. */
  bytes: Uint8Array;
  /** What the server sent (stored as the document's raw bytes). */
  raw: Uint8Array;
  errors: string[];
  clientAddress: string;
}

/** What the poller needs of its printer object. */
export interface CloudPollerHost {
  printerId(): string;
  displayName(): string;
  state(): CloudPrinterState;
  description(): PrinterDescription;
  policy(): OutboundPolicy;
  maxJobBytes(): number;
  /** Renders and stores one job as a document (the TCP path's finalisation); its id. */
  print(job: ArrivedJob): Promise<string | null>;
  /** The poll's outcome for runtimeStatus (API, runtime stream). */
  report(lastPollAt: string, lastError: string | null): void;
  /** An alarm rings by `at` at the latest (the object's alarm is shared). */
  wakeBy(at: number): Promise<void>;
}

/** One HTTP exchange with the server, bounded in time, never following redirects (a redirect is an error shown). */
export async function cloudFetch(url: string, init: RequestInit, policy: OutboundPolicy): Promise<Response> {
  const refused = outboundUrlProblem(url, policy);
  if (refused) throw new Error(refused);
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CLOUD_REQUEST_TIMEOUT_MS) });
  } catch (e) {
    if (e instanceof Error && e.name === 'TimeoutError') throw e;
    throw new Error(`Could not reach the server at ${new URL(url).host}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new Error(`The server answered ${res.status} (redirect to ${res.headers.get('location') ?? 'nowhere'}); the printer does not follow redirects`);
  }
  return res;
}

