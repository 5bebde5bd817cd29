/**
 * The CLI's HTTP side: settings from the environment, login with the workspace token, and
 * requests that turn failures into `CliError` (exit code 2) with the server's problem detail.
 */
export const EXIT = { found: 0, timedOut: 1, failed: 1, error: 2 } as const;

export class CliError extends Error {}

export interface Settings {
  url: string;
  token: string;
}

export function readCliSettings(env: NodeJS.ProcessEnv, overrides: { url?: string; token?: string }): Settings {
  const url = (overrides.url ?? env.SLIPSTREAM_URL ?? '').replace(/\/+$/, '');
  const token = overrides.token ?? env.SLIPSTREAM_TOKEN ?? '';
  if (!url) throw new CliError('Set SLIPSTREAM_URL (or --url) to the service address, e.g. http://localhost:8787');
  if (!token) throw new CliError('Set SLIPSTREAM_TOKEN (or --token) to your workspace token');
  return { url, token };
}

export interface Session {
  url: string;
  accessToken: string;
  workspace: { id: string; name: string };
  request(path: string, init?: RequestInit): Promise<Response>;
  json<T>(path: string, init?: RequestInit): Promise<T>;
}

async function failure(res: Response, what: string): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let detail = text.slice(0, 500);
  try {
    const p = JSON.parse(text) as { detail?: string };
    if (p.detail) detail = p.detail;
  } catch { /* not problem+json */ }
  return new CliError(`${what}: HTTP ${res.status}${detail ? ` - ${detail}` : ''}`);
}

/** Logs in with the workspace token (POST /api/auth/login) and returns a session for requests. */
export async function login(s: Settings): Promise<Session> {
  let res: Response;
  try {
    res = await fetch(`${s.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: s.token }) });
  } catch (e) {
    throw new CliError(`Cannot reach ${s.url}: ${(e as Error).message}`);
  }
  if (!res.ok) throw await failure(res, 'Login failed');
  const body = (await res.json()) as { accessToken: string; workspace: { id: string; name: string } };
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${body.accessToken}`);
    try {
      return await fetch(`${s.url}${path}`, { ...init, headers });
    } catch (e) {
      throw new CliError(`Cannot reach ${s.url}: ${(e as Error).message}`);
    }
  };
  return {
    url: s.url,
    accessToken: body.accessToken,
    workspace: body.workspace,
    request,
    async json<T>(path: string, init?: RequestInit): Promise<T> {
      const res = await request(path, init);
      if (!res.ok) throw await failure(res, `${init?.method ?? 'GET'} ${path}`);
      return (await res.json()) as T;
    },
  };
}

export { failure as responseError };

export interface PrinterSummary {
  printer: { id: string; displayName: string };
  settings: { protocol: string; tcpListenPort?: number | null; publicHost?: string | null; model?: string };
}

/** A printer of the workspace by id or display name (case-insensitive; ambiguous names are an error). */
export async function findPrinter(session: Session, idOrName: string): Promise<PrinterSummary> {
  const printers = await session.json<PrinterSummary[]>('/api/printers');
  const byId = printers.find((p) => p.printer.id.toLowerCase() === idOrName.toLowerCase());
  if (byId) return byId;
  const named = printers.filter((p) => p.printer.displayName.toLowerCase() === idOrName.toLowerCase());
  if (named.length === 1) return named[0];
  if (named.length > 1) throw new CliError(`${named.length} printers are named "${idOrName}"; use the id: ${named.map((p) => p.printer.id).join(', ')}`);
  throw new CliError(`No printer "${idOrName}" in workspace ${session.workspace.name}`);
}
