/**
 * gzip at rest. Bodies are compressed with zlib's synchronous API (workerd's `node:zlib`,
 * `nodejs_compat`; Node alike) at level 1: on the printing path this is per document, and a
 * CompressionStream (no level; a stream, a Blob and a Response per call) cost several times as
 * much CPU in the printer object for ~10 % fewer bytes (docs/decisions.md, "Compression at rest").
 * The format stays gzip: bodies stored before read the same, and R2 serves them as they are.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

/** zlib's fastest level: the storage bench's receipt is 1.2x its raw bytes at rest (1.1x at 6). */
export const AT_REST_GZIP_LEVEL = 1;

const decoder = new TextDecoder();

export function gzip(data: string | Uint8Array): Uint8Array {
  return gzipSync(data, { level: AT_REST_GZIP_LEVEL });
}

export function gunzip(bytes: Uint8Array): Uint8Array {
  return gunzipSync(bytes);
}

export function gunzipText(bytes: Uint8Array): string {
  return decoder.decode(gunzipSync(bytes));
}
