import { cloudFetch, type CloudPollerHost } from '../cloud-fetch.ts';
import { getRequestForm, jobResult, parsePrintRequestInfo, printResponseInfo, setResponseForm } from './sdp.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };

/**
 * One Server Direct Print poll as a TM printer makes it: the GetRequest post; for each
 * `<ePOSPrint>` job of the answer a document (rendered by the ePOS-Print translator) unless the
 * printer cannot print (cover open, paper out, offline, error: nothing prints and the job's
 * response says why) or the document breaks the schema; then one SetResponse post with every
 * job's response. An empty answer: nothing to print. Throws with a message for the runtime status.
 */
export async function pollServerDirectPrint(url: string, host: CloudPollerHost, printer: { id: string; name: string }): Promise<void> {
  const policy = host.policy();
  const res = await cloudFetch(url, { method: 'POST', headers: FORM, body: getRequestForm(printer.id, printer.name).toString() }, policy);
  const text = await res.text();
  if (!res.ok) throw new Error(`The server answered the GetRequest with HTTP ${res.status}`);
  if (text.length > host.maxJobBytes()) throw new Error(`The server's answer exceeds the maximum job size of ${host.maxJobBytes()} bytes (MAX_JOB_BYTES)`);
  const parsed = parsePrintRequestInfo(text);
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.jobs.length === 0) return;
  const results = [];
  for (const job of parsed.jobs) {
    const result = jobResult(job, host.state());
    if (job.translation.ok && result.success) {
      await host.print({ transport: 'ServerDirectPrint', bytes: job.translation.bytes, raw: new TextEncoder().encode(job.document), errors: [], clientAddress: new URL(url).host });
    } else if (!job.translation.ok) {
      await host.print({ transport: 'ServerDirectPrint', bytes: new Uint8Array(0), raw: new TextEncoder().encode(job.document), errors: [job.translation.error], clientAddress: new URL(url).host });
    }
    results.push({ job, result });
  }
  const set = await cloudFetch(url, { method: 'POST', headers: FORM, body: setResponseForm(printer.id, printer.name, printResponseInfo(results)).toString() }, policy);
  await set.body?.cancel();
  if (!set.ok) throw new Error(`The server answered the SetResponse with HTTP ${set.status}`);
  const failed = results.filter((r) => !r.result.success);
  if (failed.length) throw new Error(`Not printed: ${failed.map((r) => `${r.job.printjobid ?? 'job'} (${r.result.code})`).join(', ')}`);
}
