/**
 * The vendors' SDK requests recorded by test/fixtures/http-printers/record-vendor-sdks.ts
 * (Epson's ePOS SDK, Star's WebPRNT SDK), for replaying byte for byte, and an HTTPS post that
 * verifies the bridge's certificate.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordedRequest { method: string; path: string; headers: Record<string, string>; body: string }

function recordedPost(fixture: string): RecordedRequest {
  const { requests } = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/http-printers', fixture), 'utf8')) as { requests: RecordedRequest[] };
  return requests.find((r) => r.method === 'POST')!;
}

/** The print request Epson's ePOS SDK 2.27.0 sends. */
export const eposSdkPost = recordedPost('epson-epos-2.27.0.json');
/** The print request Star's WebPRNT SDK 1.2.0 sends. */
export const webPrntSdkPost = recordedPost('star-webprnt-sdk-1.2.0.json');

/** Posts `request` to `url` over HTTPS, trusting only `ca`; resolves with the answer's body. */
export function postOverHttps(url: string, ca: Buffer, request: RecordedRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'POST', ca, headers: request.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end(request.body);
  });
}
