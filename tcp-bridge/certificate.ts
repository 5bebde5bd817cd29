/**
 * The bridge's self-signed TLS certificate for HTTPS on printer ports: made on first start
 * with `selfsigned` and kept in STATE_DIR (tls-cert.pem, tls-key.pem), so a browser that
 * accepted it once keeps trusting the same certificate across restarts. Its names: the
 * bridge's public host, localhost and 127.0.0.1. A certificate whose names no longer match is made anew.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsCredentials {
  cert: string;
  key: string;
}

const YEARS_VALID = 10;

export function certificateNames(publicHost: string): string[] {
  return [...new Set([publicHost, 'localhost', '127.0.0.1'].filter(Boolean))];
}

function covers(certPem: string, names: string[]): boolean {
  try {
    const alt = new X509Certificate(certPem).subjectAltName ?? '';
    return names.every((n) => alt.includes(isIP(n) ? `IP Address:${n}` : `DNS:${n}`));
  } catch {
    return false;
  }
}

/** The certificate in `stateDir` (made there when missing); in memory only without a directory. */
export async function bridgeCertificate(stateDir: string, publicHost: string): Promise<TlsCredentials> {
  const names = certificateNames(publicHost);
  const certFile = stateDir ? join(stateDir, 'tls-cert.pem') : '';
  const keyFile = stateDir ? join(stateDir, 'tls-key.pem') : '';
  if (certFile && existsSync(certFile) && existsSync(keyFile)) {
    const kept = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
    if (covers(kept.cert, names)) return kept;
  }
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: publicHost || 'localhost' }, { name: 'organizationName', value: 'Slipstream printer emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 86400_000),
    notAfterDate: new Date(now.getTime() + YEARS_VALID * 365 * 86400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    ],
  });
  const made = { cert: pems.cert, key: pems.private };
  if (certFile) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(keyFile, made.key, { mode: 0o600 });
    writeFileSync(certFile, made.cert);
  }
  return made;
}
