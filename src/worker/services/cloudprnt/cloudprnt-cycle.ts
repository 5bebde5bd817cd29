import { cloudFetch, type CloudPollerHost } from '../cloud-fetch.ts';
import { decodePicture, pictureToStarRaster, type PictureType } from '../../../engines/star/picture-job.ts';
import {
  answerClientActions, bareMediaType, canPrint, chooseMediaType, confirmationRequest, JOB_RESULT, jobRequestUrl, parsePollAnswer,
  pollRequestBody, type ClientActionResult, type CloudPrntClient,
} from './star-cloudprnt.ts';

const ESC = 0x1b;

/** `X-Star-Cut` (text and picture jobs): full, partial or none, with feed unless `feed=false`; default a full cut with feed. */
function cutBytes(header: string | null): number[] {
  const h = (header ?? 'full').toLowerCase();
  if (h.startsWith('none')) return [];
  const feed = !/feed\s*=\s*false/.test(h);
  const partial = h.startsWith('partial');
  return [ESC, 0x64, (partial ? 1 : 0) + (feed ? 2 : 0)]; // ESC d n
}

/**
 * What the printer runs for a job of `mediaType`: the printer's own commands and Star raster as
 * sent; text followed by a cut; pictures pixel for pixel (scaled down to the print width when
 * wider), dithered unless `X-Star-ImageDitherPattern: none`, then a cut.
 */
function jobBytes(mediaType: string, body: Uint8Array, headers: Headers, widthInDots: number): Uint8Array {
  const type = bareMediaType(mediaType);
  if (type === 'image/png' || type === 'image/jpeg') {
    const dither = (headers.get('x-star-imageditherpattern') ?? 'fs').trim().toLowerCase() !== 'none';
    const raster = pictureToStarRaster(decodePicture(type as PictureType, body), widthInDots, dither);
    return Uint8Array.from([...raster, ...cutBytes(headers.get('x-star-cut'))]);
  }
  if (type === 'text/plain') return Uint8Array.from([...body, 0x0a, ...cutBytes(headers.get('x-star-cut'))]);
  return body;
}

/**
 * One CloudPRNT poll as the printer makes it (Star's CloudPRNT Developer Guide): the status
 * POST; when the server asks `clientAction`s, their answers in a POST sent at once (the job
 * waits for that poll's answer); when a job is ready and the printer can print, the job GET in
 * the type the printer prefers, the document, and the confirmation with its code. A printer
 * that cannot print (out of paper, cover open, offline) fetches nothing: the server keeps the
 * job and reads why from `statusCode`. Throws with a message for the runtime status.
 */
export async function pollCloudPrnt(pollUrl: string, host: CloudPollerHost, client: CloudPrntClient): Promise<void> {
  const policy = host.policy();
  let answers: ClientActionResult[] = [];
  for (let round = 0; round < 2; round++) {
    const res = await cloudFetch(pollUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pollRequestBody(client, host.state(), false, answers)),
    }, policy);
    const text = await res.text();
    if (!res.ok) throw new Error(`The server answered the poll with HTTP ${res.status}`);
    const parsed = parsePollAnswer(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const answer = parsed.answer;
    if (answer.clientAction.length > 0 && round === 0) {
      answers = answerClientActions(answer.clientAction, host.description(), client);
      continue;
    }
    if (!answer.jobReady || !canPrint(host.state().flags)) return;
    const confirm = async (code: string) => {
      const c = confirmationRequest(pollUrl, answer, client, code);
      const r = await cloudFetch(c.url, { method: c.method }, policy);
      await r.body?.cancel();
      if (!r.ok) throw new Error(`The server answered the job confirmation (${code}) with HTTP ${r.status}`);
    };
    const mediaType = chooseMediaType(answer.mediaTypes, host.description().protocol);
    if (!mediaType) {
      await confirm(JOB_RESULT.incompatibleMediaType);
      throw new Error(`The server offered no media type this printer takes (offered: ${answer.mediaTypes.join(', ') || 'none'})`);
    }
    const max = host.maxJobBytes();
    let job: Response;
    let body: Uint8Array;
    try {
      job = await cloudFetch(jobRequestUrl(pollUrl, answer, client, mediaType), { method: 'GET' }, policy);
      if (!job.ok) {
        await job.body?.cancel();
        // Nothing to print: the printer polls on, and fetches again while the server says jobReady.
        throw new Error(`The server answered the job request with HTTP ${job.status}`);
      }
      if (Number(job.headers.get('content-length') ?? '0') > max) {
        await job.body?.cancel();
        body = new Uint8Array(max + 1);
      } else {
        body = new Uint8Array(await job.arrayBuffer());
      }
    } catch (e) {
      if (e instanceof Error && e.name === 'TimeoutError') await confirm(JOB_RESULT.downloadTimeout).catch(() => undefined);
      throw e;
    }
    if (body.length > max) {
      await confirm(JOB_RESULT.tooLarge);
      throw new Error(`The job exceeds the maximum job size of ${max} bytes (MAX_JOB_BYTES)`);
    }
    let bytes: Uint8Array;
    try {
      bytes = jobBytes(mediaType, body, job.headers, host.description().widthInDots);
    } catch (e) {
      await confirm(JOB_RESULT.decodingError);
      throw new Error(`The ${bareMediaType(mediaType)} job could not be decoded: ${e instanceof Error ? e.message : String(e)}`);
    }
    await host.print({ transport: 'CloudPrnt', bytes, raw: body, errors: [], clientAddress: new URL(pollUrl).host });
    await confirm(JOB_RESULT.printed);
    return;
  }
}
