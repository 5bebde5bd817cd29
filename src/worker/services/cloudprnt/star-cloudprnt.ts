/**
 * Star CloudPRNT as the printer speaks it (Star CloudPRNT Developer Guide: "Polling the server
 * (POST)", "Print job requests (GET)", "Print job confirmation (DELETE)", "Content Media
 * Types", "Printer Status Codes"). Pure: the poller (objects/cloud-poller.ts) does the HTTP.
 */
import type { DrawerState, OperationalFlags } from '../../../engines/canvas/printer-context.ts';
import { starAsb } from '../../../engines/star/status.ts';

/**
 * The media types a Star printer of each protocol takes, best first: "the client will choose its
 * preferred format from those available" (the guide), so the printer's order decides, not the
 * server's. The printer's own command language first, then Star raster (the same engine), then
 * pictures and plain text. Star Document Markup (text/vnd.star.markup) is a server-side format
 * (Star's cputil converts it), not one a printer takes; application/octet-stream is left out as
 * the guide advises.
 */
export const CLOUDPRNT_MEDIA_TYPES: Readonly<Record<'StarPrnt' | 'StarLine', readonly string[]>> = {
  StarPrnt: ['application/vnd.star.starprnt', 'application/vnd.star.raster', 'image/png', 'image/jpeg', 'text/plain'],
  StarLine: ['application/vnd.star.line', 'application/vnd.star.raster', 'image/png', 'image/jpeg', 'text/plain'],
};

/** `ClientVersion`: "<CloudPRNT specification version>.<implementation revision>". */
export const CLOUDPRNT_CLIENT_VERSION = '1.4.0';

/** Codes of the job confirmation (the guide's "Printer Status Codes"; the printer sends 200 after printing). */
export const JOB_RESULT = {
  printed: '200 OK',
  incompatibleMediaType: '510 Incompatible media type',
  decodingError: '511 Media decoding error',
  downloadTimeout: '520 Timeout',
  tooLarge: '521 Job too large',
} as const;

export interface CloudPrinterState {
  flags: OperationalFlags;
  drawer1State: DrawerState;
}

/**
 * `statusCode`: a 3-digit code and its text (the guide's "Printer Status Codes"). 2xx: online
 * and able to print (210 paper low); 4xx: a printer error (410 out of paper, 420 cover open;
 * offline and other errors, for which the guide names no code of their own, 400). One code:
 * the condition that stops printing first.
 */
export function cloudPrntStatusCode(flags: OperationalFlags): string {
  if (flags.isCoverOpen) return '420 Cover open';
  if (flags.isPaperOut) return '410 Out of paper';
  if (flags.isOffline) return '400 Printer offline';
  if (flags.hasError) return '400 Printer error';
  if (flags.isPaperNearEnd) return '210 Paper low';
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

/** The ASB as the `status` field carries it: each byte in hex followed by a space ("23 6 0 0 0 0 0 0 0 " in the guide). */
export function asbField(state: CloudPrinterState): string {
  const asb = starAsb({ flags: state.flags, drawer1State: state.drawer1State, bufferFull: false, etbCounter: 0, etbExecuted: false });
  return [...asb].map((b) => `${b.toString(16)} `).join('');
}

export interface ClientActionRequest { request: string; options: string }
export interface ClientActionResult { request: string; result: unknown }

export interface PollRequestBody {
  status: string;
  printerMAC: string;
  uniqueID?: string;
  statusCode: string;
  printingInProgress: boolean;
  clientAction: ClientActionResult[] | null;
}

/** What the printer keeps between polls: the id a server set (SetID) and its poll interval. */
export interface CloudPrntClient {
  printerId: string;
  uniqueId: string | null;
  intervalSeconds: number;
}

export function pollRequestBody(client: CloudPrntClient, state: CloudPrinterState, printingInProgress: boolean, answers: ClientActionResult[]): PollRequestBody {
  return {
    status: asbField(state),
    printerMAC: printerMacOf(client.printerId),
    ...(client.uniqueId !== null && { uniqueID: client.uniqueId }),
    // URL-encoded, as the printer also sends it in query strings ("200%20OK").
    statusCode: encodeURIComponent(cloudPrntStatusCode(state.flags)),
    printingInProgress,
    clientAction: answers.length > 0 ? answers : null,
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

/** The media type without parameters ("text/plain; charset=utf-8" → "text/plain"). */
export const bareMediaType = (t: string): string => t.split(';')[0].trim().toLowerCase();

/** The printer's preferred media type among those the server offers (as the server spelled it); null: none it takes. */
export function chooseMediaType(offered: readonly string[], protocol: 'StarPrnt' | 'StarLine'): string | null {
  for (const type of CLOUDPRNT_MEDIA_TYPES[protocol]) {
    const match = offered.find((t) => bareMediaType(t) === type);
    if (match) return match.trim();
  }
  return null;
}

export interface PrinterDescription {
  modelName: string;
  dpi: number;
  widthInDots: number;
  protocol: 'StarPrnt' | 'StarLine';
}

/** The roll a print width sits on (58, 80 or 112 mm rolls leave a few mm of margin); else the width plus margins. */
function paperWidthMm(printWidthMm: number): number {
  return [58, 80, 112].find((roll) => roll >= printWidthMm + 6) ?? Math.round(printWidthMm + 8);
}

/**
 * Answers to the server's `clientAction` requests (the guide's table: ClientType, ClientVersion,
 * Encodings, SetID, GetPollInterval, PageInfo); a request the printer does not know is
 * answered with an empty result. SetID changes `client.uniqueId`.
 */
export function answerClientActions(requests: readonly ClientActionRequest[], p: PrinterDescription, client: CloudPrntClient): ClientActionResult[] {
  const dotsPerMm = p.dpi / 25.4;
  return requests.map(({ request, options }) => {
    switch (request) {
      case 'PageInfo':
        return {
          request,
          result: {
            paperWidth: String(paperWidthMm(p.widthInDots / dotsPerMm)),
            printWidth: String(Math.round((p.widthInDots / dotsPerMm) * 10) / 10),
            horizontalResolution: String(Math.round(dotsPerMm * 100) / 100),
            verticalResolution: String(Math.round(dotsPerMm * 100) / 100),
          },
        };
      case 'ClientType':
        return { request, result: `Star ${p.modelName} CloudPRNT (Slipstream emulator)` };
      case 'ClientVersion':
        return { request, result: CLOUDPRNT_CLIENT_VERSION };
      case 'Encodings':
        return { request, result: CLOUDPRNT_MEDIA_TYPES[p.protocol].join('; ') };
      case 'SetID':
        client.uniqueId = options || null;
        return { request, result: options };
      case 'GetPollInterval':
        return { request, result: String(client.intervalSeconds) };
      default:
        return { request, result: '' };
    }
  });
}

/** A query string as the printer writes it: values percent-encoded ("200%20OK"), a bare name for a flag (`delete`). */
function withQuery(base: string, pollUrl: string, params: [string, string | null][]): string {
  const url = new URL(base, pollUrl);
  const own = params.map(([k, v]) => (v === null ? k : `${k}=${encodeURIComponent(v)}`)).join('&');
  return `${url.origin}${url.pathname}${url.search ? `${url.search}&` : '?'}${own}`;
}

/** The job GET: `uid` when set, `type`, `mac`, and the `token` the poll gave. */
export function jobRequestUrl(pollUrl: string, answer: PollAnswer, client: CloudPrntClient, mediaType: string): string {
  return withQuery(answer.jobGetUrl ?? pollUrl, pollUrl, [
    ...(client.uniqueId !== null ? [['uid', client.uniqueId] as [string, string]] : []),
    ['type', mediaType], ['mac', printerMacOf(client.printerId)],
    ...(answer.jobToken ? [['token', answer.jobToken] as [string, string]] : []),
  ]);
}

/** The confirmation: DELETE with the GET's query and `code`, or GET with `delete` added when the server's `deleteMethod` says GET. */
export function confirmationRequest(pollUrl: string, answer: PollAnswer, client: CloudPrntClient, code: string): { method: 'DELETE' | 'GET'; url: string } {
  const url = withQuery(answer.jobConfirmationUrl ?? pollUrl, pollUrl, [
    ...(client.uniqueId !== null ? [['uid', client.uniqueId] as [string, string]] : []),
    ['code', code], ['mac', printerMacOf(client.printerId)],
    ...(answer.jobToken ? [['token', answer.jobToken] as [string, string]] : []),
    ...(answer.deleteMethod === 'GET' ? [['delete', null] as [string, null]] : []),
  ]);
  return { method: answer.deleteMethod, url };
}
