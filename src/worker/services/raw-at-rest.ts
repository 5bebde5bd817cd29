/**
 * A document's raw job bytes in R2 (a job over `INLINE_RAW_LIMIT`), gzipped: under `npm start`
 * the local R2 simulator took about three times an object's size of workerd's memory to take it
 * in (16 MiB of raw bytes: ~48 MB, kept as workerd's allocator keeps what it once used), and
 * print jobs compress well (text, bands of raster dots; a 16 MiB text job is ~1 % of its size
 * gzipped). Compressed a MiB at a time, each MiB a gzip member of its own (a gzip file may be
 * several members; reading it gives them one after the other), with a pause between: no step
 * holds the thread the printer objects share for long.
 *
 * Raw objects stored before are under `raw/<id>.bin`, uncompressed; they read as they are.
 */
import { gunzip, gzip } from './gzip.ts';
import { putInSteps } from './stepped-put.ts';

const MEMBER_BYTES = 1 << 20;
const GZIPPED = '.bin.gz';

export function rawKeyOf(documentId: string): string {
  return `raw/${documentId}${GZIPPED}`;
}

export async function putRaw(bucket: R2Bucket, key: string, raw: Uint8Array, pause: () => Promise<void>): Promise<void> {
  const members: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += MEMBER_BYTES) {
    if (at > 0) await pause();
    members.push(gzip(raw.subarray(at, at + MEMBER_BYTES)));
  }
  const gz = new Uint8Array(members.reduce((n, m) => n + m.length, 0));
  let offset = 0;
  for (const m of members) {
    gz.set(m, offset);
    offset += m.length;
  }
  await putInSteps(bucket, key, gz, undefined, pause);
}

/** The raw bytes from the object stored under `key`. */
export function rawOfObject(key: string, stored: Uint8Array): Uint8Array {
  return key.endsWith(GZIPPED) ? gunzip(stored) : stored;
}
