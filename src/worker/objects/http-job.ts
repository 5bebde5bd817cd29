import type { BridgeRequestTransport } from '../../shared/transports.ts';
import { translateWebPrnt, webPrntResponse } from '../../engines/webprnt/index.ts';
import { starAsb } from '../../engines/star/status.ts';
import { eposResponseEnvelope, eposResult, translateEposPrint, type EposPrinterState } from '../../engines/epos-print/index.ts';

/**
 * A print job that arrives as one request through the bridge (an HTTP printer endpoint, LPD):
 * the bytes the printer's engine runs for it and the answer its client gets. The printer
 * object (printer-object.ts `httpJob`) feeds, stores and answers; this module knows the formats.
 */
export interface HttpJobRequest {
  transport: BridgeRequestTransport;
  sessionId: string;
  clientAddress: string;
  /** The request body as received: stored as the document's raw bytes. */
  body: Uint8Array;
  /** How long the client lets the printer wait for a condition that keeps it from printing (ePOS `timeout`). */
  timeoutMs: number;
}

/** What the bridge sends back to the client (plus CORS headers of its own). */
export interface HttpJobAnswer {
  documentId: string | null;
  status: number;
  contentType: string;
  body: string;
}

export interface PreparedHttpJob {
  /** What the engine runs; null when the request cannot print (a schema error). */
  bytes: Uint8Array | null;
  /** Messages for the document (why nothing printed). */
  errors: string[];
  /** Whether the printer waits (up to the request's timeout) for cover open, paper out or offline to clear. */
  waitsForReady: boolean;
  answer(state: EposPrinterState): Omit<HttpJobAnswer, 'documentId'> & { error?: string };
}

const XML = 'text/xml; charset=utf-8';

export function prepareHttpJob(req: HttpJobRequest): PreparedHttpJob {
  switch (req.transport) {
    case 'EposPrint': {
      const t = translateEposPrint(new TextDecoder().decode(req.body));
      return {
        bytes: t.ok ? t.bytes : null,
        errors: t.ok ? [] : [t.error],
        waitsForReady: t.ok,
        answer(state) {
          const r = eposResult(state, !t.ok);
          return {
            status: 200,
            contentType: XML,
            body: eposResponseEnvelope(r, t.printjobid),
            ...(r.code && r.code !== 'SchemaError' && { error: `The printer answered the ePOS-Print request with success="false" code="${r.code}"` }),
          };
        },
      };
    }
    case 'WebPrnt': {
      const t = translateWebPrnt(new TextDecoder().decode(req.body));
      return {
        bytes: t.ok ? t.bytes : null,
        errors: t.ok ? [] : [t.error],
        waitsForReady: false,
        answer(state) {
          const f = state.flags;
          const code = !t.ok ? 'REQUEST_ERROR' : f.isCoverOpen || f.isPaperOut || f.isOffline || f.hasError ? 'PRINTER_OFFLINE' : 'OK';
          const asb = starAsb({ flags: f, drawer1State: state.drawer1State, bufferFull: false, etbCounter: 0, etbExecuted: false });
          return {
            status: 200,
            contentType: XML,
            body: webPrntResponse(code === 'OK', code, asb),
            ...(code === 'PRINTER_OFFLINE' && { error: 'The printer answered the WebPRNT request with success false (it reports itself offline)' }),
          };
        },
      };
    }
    case 'ZebraHttp':
    case 'Lpd':
      return {
        bytes: req.body,
        errors: [],
        waitsForReady: false,
        answer: () => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: '' }),
      };
  }
}
