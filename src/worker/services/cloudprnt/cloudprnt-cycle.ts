import { cloudFetch, type CloudPollerHost } from '../../objects/cloud-poller.ts';
import { decodePicture, pictureToStarRaster, type PictureType } from '../../../engines/star/picture-job.ts';
import {
  answerClientActions, canPrint, chooseMediaType, confirmationRequest, JOB_RESULT, jobRequestUrl, parsePollAnswer, pollRequestBody,
  printerMacOf, type ClientActionResult,
} from './star-cloudprnt.ts';

/**
 * One CloudPRNT poll as the printer makes it: the status POST; then, when the server asked,
 * the `clientAction` answers in a second POST; when a job is ready and the printer can print,
 * the job GET in the media type chosen, the document, and the confirmation with its code. A
 * printer that cannot print (paper out, cover open, offline) fetches nothing: the server keeps
 * the job and reads why from `statusCode`. Throws with a message for the runtime status.
 */
export async function pollCloudPrnt(pollUrl: string, host: CloudPollerHost): Promise<void> {
  const policy = host.policy();
  const printerId = host.printerId();
  const mac = printerMacOf(printerId);
  let answers: ClientActionResult[] = [];
  // At most one follow-up POST carrying client action answers per poll.
  for (let round = 0; round < 2; round++) {
    const res = await cloudFetch(pollUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pollRequestBody(printerId, host.state(), false, answers)),
    }, policy);
    const text = await res.text();
    if (!res.ok) throw new Error(`The server answered the poll with HTTP ${res.status}`);
    const parsed = parsePollAnswer(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const answer = parsed.answer;
    if (answer.clientAction.length > 0 && round === 0) {
      answers = answerClientActions(answer.clientAction, host.description());
      continue;
    }
    if (!answer.jobReady || !canPrint(host.state().flags)) return;
    const protocol = host.description().protocol;
    const confirm = async (code: string) => {
      const c = confirmationRequest(pollUrl, answer, mac, code);
      const r = await cloudFetch(c.url, { method: c.method }, policy);
      await r.body?.cancel();
      if (!r.ok) throw new Error(`The server answered the job confirmation (${code}) with HTTP ${r.status}`);
    };
    const mediaType = chooseMediaType(answer.mediaTypes, protocol);
    if (!mediaType) {
      await confirm(JOB_RESULT.unsupportedMediaType);
      throw new Error(`The server offered no media type this printer takes (offered: ${answer.mediaTypes.join(', ') || 'none'})`);
    }
    let body: Uint8Array;
    try {
      const job = await cloudFetch(jobRequestUrl(pollUrl, answer, mac, mediaType), { method: 'GET' }, policy);
      if (!job.ok) {
        await job.body?.cancel();
        throw new Error(`The server answered the job request with HTTP ${job.status}`);
      }
      const declared = Number(job.headers.get('content-length') ?? '0');
      if (declared > host.maxJobBytes()) {
        await job.body?.cancel();
        await confirm(JOB_RESULT.tooLarge);
        throw new Error(`The job of ${declared} bytes exceeds the maximum job size of ${host.maxJobBytes()} bytes`);
      }
      body = new Uint8Array(await job.arrayBuffer());
    } catch (e) {
      if (e instanceof Error && /exceeds the maximum/.test(e.message)) throw e;
      await confirm(JOB_RESULT.downloadFailed).catch(() => undefined);
      throw e;
    }
    if (body.length > host.maxJobBytes()) {
      await confirm(JOB_RESULT.tooLarge);
      throw new Error(`The job of ${body.length} bytes exceeds the maximum job size of ${host.maxJobBytes()} bytes`);
    }
    let bytes = body;
    const errors: string[] = [];
    if (mediaType === 'image/png' || mediaType === 'image/jpeg') {
      try {
        bytes = pictureToStarRaster(decodePicture(mediaType as PictureType, body), host.description().widthInDots);
      } catch (e) {
        await confirm(JOB_RESULT.invalidData);
        throw new Error(`The ${mediaType} job could not be decoded: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    await host.print({ transport: 'CloudPrnt', bytes, raw: body, errors, clientAddress: new URL(pollUrl).host });
    await confirm(JOB_RESULT.printed);
    return;
  }
}
