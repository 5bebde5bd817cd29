/**
 * Star CloudPRNT as the printer speaks it (Star CloudPRNT Developer Guide: "Polling the server
 * (POST)", "Print job requests (GET)", "Print job confirmation (DELETE)", "Content Media
 * Types", "Printer Status Codes"). Pure: the poller (objects/cloud-poller.ts) does the HTTP.
 */
import type { DrawerState, OperationalFlags } from '../../../engines/canvas/printer-context.ts';
import { starAsb } from '../../../engines/star/status.ts';

/** The media types a Star printer of each protocol takes, in the order the poller prefers when the server lists several it takes. */
export const CLOUDPRNT_MEDIA_TYPES: Readonly<Record<'StarPrnt' | 'StarLine', readonly string[]>> = {
  StarPrnt: ['application/vnd.star.starprnt', 'image/png', 'image/jpeg', 'text/plain'],
  StarLine: ['application/vnd.star.line', 'image/png', 'image/jpeg', 'text/plain'],
};

/** The version Slipstream reports for `ClientVersion` (the CloudPRNT protocol level it follows). */
export const CLOUDPRNT_CLIENT_VERSION = '1.5.0';

/** Result codes of the job confirmation (the `code` query parameter, URL-encoded by URLSearchParams). */
export const JOB_RESULT = {
  printed: '200 OK',
  unsupportedMediaType: '510 Unsupported media type',
  invalidData: '511 Invalid job data',
  tooLarge: '512 Job too large',
  downloadFailed: '520 Download failed',
} as const;

export interface CloudPrinterState {
  flags: OperationalFlags;
  drawer1State: DrawerState;
}

/**
 * `statusCode`: a 3-digit code and its text. 2xx: online and able to print (211 paper near
 * end); 4xx: online but unable to print (410 paper out, 420 cover open, 400 offline or error).
 * The worst condition wins, as the device reports one code.
 */
export function cloudPrntStatusCode(flags: OperationalFlags): string {
  if (flags.isCoverOpen) return '420 Cover Open';
  if (flags.isPaperOut) return '410 Paper Out';
  if (flags.isOffline || flags.hasError) return '400 Printer Offline';
  if (flags.isPaperNearEnd) return '211 Paper Low';
  return '200 OK';
}

/** Whether the printer can print now (2xx): a 4xx printer fetches no job, so the server keeps it. */
export const canPrint = (flags: OperationalFlags): boolean => cloudPrntStatusCode(flags).startsWith('2');

/** A stable MAC for a printer: Star's OUI 00:11:62 and three bytes of the printer id's hash. */
export function printerMacOf(printerId: string): string {
  let h = 0x811c9dc5;
  for (const c of printerId.toLowerCase()) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  const bytes = [0x00, 0x11, 0x62, (h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** The ASB as the `status` field carries it: hex bytes, each followed by a space. */
export function asbField(state: CloudPrinterState): string {
  const asb = starAsb({ flags: state.flags, drawer1State: state.drawer1State, bufferFull: false, etbCounter: 0, etbExecuted: false });
  return [...asb].map((b) => `${b.toString(16).padStart(2, '0')} `).join('');
}

export interface ClientActionRequest { request: string; options: string }
export interface ClientActionResult { request: string; result: unknown }

export interface PollRequestBody {
  status: string;
  printerMAC: string;
  statusCode: string;
  printingInProgress: boolean;
  clientAction?: ClientActionResult[];
}

export function pollRequestBody(printerId: string, state: CloudPrinterState, printingInProgress: boolean, answers: ClientActionResult[]): PollRequestBody {
  return {
    status: asbField(state),
    printerMAC: printerMacOf(printerId),
    // The guide's requests carry the code URL-encoded ("200%20OK").
    statusCode: encodeURIComponent(cloudPrntStatusCode(state.flags)),
    printingInProgress,
    ...(answers.length > 0 && { clientAction: answers }),
  };
}

export interface PollAnswer {
  jobReady: boolean;
  mediaTypes: string[];
  jobToken: string | null;
  deleteMethod: 'DELETE' | 'GET';
  clientAction: ClientActionRequest[];
  /** Where to GET the job and confirm it; absent: the poll URL. */
  jobGetUrl: string | null;
  jobConfirmationUrl: string | null;
}

/** The server's answer to a poll; a message naming what is wrong otherwise. */
export function parsePollAnswer(text: string): { ok: true; answer: PollAnswer } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: `The poll answer is not JSON: ${JSON.stringify(text.slice(0, 80))}` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'The poll answer is not a JSON object' };
  const o = v as Record<string, unknown>;
  if (typeof o.jobReady !== 'boolean') return { ok: false, error: 'The poll answer has no boolean jobReady' };
  const strings = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  const actions = Array.isArray(o.clientAction)
    ? o.clientAction.flatMap((a) => (a && typeof a === 'object' && typeof (a as Record<string, unknown>).request === 'string'
      ? [{ request: (a as Record<string, string>).request, options: String((a as Record<string, unknown>).options ?? '') }] : []))
    : [];
  const str = (x: unknown) => (typeof x === 'string' && x ? x : null);
  return {
    ok: true,
    answer: {
      jobReady: o.jobReady,
      mediaTypes: strings(o.mediaTypes),
      jobToken: str(o.jobToken),
      deleteMethod: typeof o.deleteMethod === 'string' && o.deleteMethod.toUpperCase() === 'GET' ? 'GET' : 'DELETE',
      clientAction: actions,
      jobGetUrl: str(o.jobGetUrl),
      jobConfirmationUrl: str(o.jobConfirmationUrl),
    },
  };
}

/** The first of the server's media types (its order of preference) that the printer takes; null: none. */
export function chooseMediaType(offered: readonly string[], protocol: 'StarPrnt' | 'StarLine'): string | null {
  const accepted = CLOUDPRNT_MEDIA_TYPES[protocol];
  return offered.find((t) => accepted.includes(t.trim().toLowerCase()))?.trim().toLowerCase() ?? null;
}

export interface PrinterDescription {
  modelName: string;
  dpi: number;
  widthInDots: number;
  protocol: 'StarPrnt' | 'StarLine';
}

/** Answers to the server's `clientAction` requests; unknown requests are answered with an empty result, as the guide asks. */
export function answerClientActions(requests: readonly ClientActionRequest[], p: PrinterDescription): ClientActionResult[] {
  const dotsPerMm = p.dpi / 25.4;
  return requests.map(({ request }) => {
    switch (request) {
      case 'PageInfo':
        return {
          request,
          result: {
            paperWidth: String(Math.round((p.widthInDots / dotsPerMm + 8) * 10) / 10),
            printWidth: String(Math.round((p.widthInDots / dotsPerMm) * 10) / 10),
            horizontalResolution: String(Math.round(dotsPerMm * 100) / 100),
            verticalResolution: String(Math.round(dotsPerMm * 100) / 100),
          },
        };
      case 'ClientType':
        return { request, result: `Star ${p.modelName} (Slipstream emulator)` };
      case 'ClientVersion':
        return { request, result: CLOUDPRNT_CLIENT_VERSION };
      case 'Encodings':
        return { request, result: CLOUDPRNT_MEDIA_TYPES[p.protocol].join('; ') };
      default:
        return { request, result: '' };
    }
  });
}

/** The job GET: `type`, `mac` and the `token` the poll gave. */
export function jobRequestUrl(pollUrl: string, answer: PollAnswer, mac: string, mediaType: string): string {
  const url = new URL(answer.jobGetUrl ?? pollUrl, pollUrl);
  url.searchParams.set('type', mediaType);
  url.searchParams.set('mac', mac);
  if (answer.jobToken) url.searchParams.set('token', answer.jobToken);
  return url.toString();
}

/** The confirmation: DELETE, or GET with `delete` when the server's `deleteMethod` says GET. */
export function confirmationRequest(pollUrl: string, answer: PollAnswer, mac: string, code: string): { method: 'DELETE' | 'GET'; url: string } {
  const url = new URL(answer.jobConfirmationUrl ?? pollUrl, pollUrl);
  url.searchParams.set('code', code);
  url.searchParams.set('mac', mac);
  if (answer.jobToken) url.searchParams.set('token', answer.jobToken);
  if (answer.deleteMethod === 'GET') {
    url.searchParams.set('delete', '');
    return { method: 'GET', url: url.toString() };
  }
  return { method: 'DELETE', url: url.toString() };
}
