/** Small client for e2e tests against the running service. */
import type { Protocol } from '../../src/engines/protocols.ts';
import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';

export const baseUrl = () => inject('baseUrl');

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type Api = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResult<T>>;

export function apiFor(accessToken: string | null): Api {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(baseUrl() + path, {
      method,
      headers: {
        ...(accessToken && { authorization: `Bearer ${accessToken}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

export async function createWorkspaceAndLogin(name = 'e2e workspace', id = randomUUID()) {
  const anon = apiFor(null);
  const created = await anon('POST', '/api/workspaces', { id, workspaceName: name });
  if (created.status !== 200) throw new Error(`create workspace: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await anon('POST', '/api/auth/login', { token: created.body.token });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return { token: created.body.token as string, accessToken: login.body.accessToken as string, workspaceId: id, api: apiFor(login.body.accessToken) };
}

export interface PrinterOptions {
  protocol?: Protocol;
  widthInDots?: number;
  heightInDots?: number | null;
  emulateBufferCapacity?: boolean;
  bufferDrainRate?: number | null;
  bufferMaxCapacity?: number | null;
  displayName?: string;
  id?: string;
}

export async function createPrinter(api: Api, o: PrinterOptions = {}) {
  const res = await api('POST', '/api/printers', {
    printer: { id: o.id ?? randomUUID(), displayName: o.displayName ?? 'e2e printer' },
    settings: {
      protocol: o.protocol ?? 'EscPos',
      widthInDots: o.widthInDots ?? 576,
      heightInDots: o.heightInDots ?? null,
      emulateBufferCapacity: o.emulateBufferCapacity ?? false,
      bufferDrainRate: o.bufferDrainRate ?? null,
      bufferMaxCapacity: o.bufferMaxCapacity ?? null,
    },
  });
  if (res.status !== 200) throw new Error(`create printer: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
