/**
 * "Printers as code" for `npm start`: SLIPSTREAM_CONFIG=FILE or `npm start -- --config FILE`
 * names a JSON file of workspaces and printers (src/worker/schemas/printers-config.ts).
 * The file is read and validated before anything starts, so a bad file stops start with a
 * message naming the file, the entry and the field; once the Worker answers, the file is
 * applied through its internal route (behind BRIDGE_SECRET), before the bridge binds ports.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { formatConfigIssues, PrintersConfig, type ApplyConfigReport } from '../src/worker/schemas/printers-config.ts';

export interface DeclaredFile { path: string; config: PrintersConfig }

/** A problem with the file; `lines` each name the file and, where there is one, the entry. */
export class ConfigFileError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** `--config FILE`, `--config=FILE` or SLIPSTREAM_CONFIG; relative to where npm was run. */
export function configFilePath(argv: readonly string[], env: NodeJS.ProcessEnv): string | null {
  let given: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--config') given = argv[i + 1];
    else if (argv[i].startsWith('--config=')) given = argv[i].slice('--config='.length);
  }
  if (given === undefined && env.SLIPSTREAM_CONFIG) given = env.SLIPSTREAM_CONFIG;
  if (given === undefined) return null;
  if (!given) throw new ConfigFileError(['--config needs a file name']);
  // npm runs scripts in the package root; INIT_CWD is where the user typed `npm start`.
  return resolve(env.INIT_CWD || process.cwd(), given);
}

export function loadConfigFile(path: string): DeclaredFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigFileError([`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigFileError([`${path}: is not valid JSON: ${(e as Error).message}`]);
  }
  const parsed = PrintersConfig.safeParse(raw);
  if (!parsed.success) throw new ConfigFileError(formatConfigIssues(path, raw, parsed.error.issues));
  return { path, config: parsed.data };
}

/** What `npm start` posts to the Worker for this file. */
const requestBody = (file: DeclaredFile) => JSON.stringify(file.config);

/**
 * The digest the Worker records once it has applied this file (SHA-256 hex of the posted body):
 * given to it as PRINTERS_FILE_DIGEST, so GET /api/health is ready only after the file is applied.
 */
export const declaredFileDigest = (file: DeclaredFile): string => createHash('sha256').update(requestBody(file)).digest('hex');

/** Creates or updates what the file declares; a conflict (a port in use, …) names the printer. */
export async function applyConfigFile(workerUrl: string, bridgeSecret: string, file: DeclaredFile): Promise<ApplyConfigReport> {
  const res = await fetch(`${workerUrl}/internal/config/apply`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bridgeSecret}`, 'content-type': 'application/json' },
    body: requestBody(file),
  });
  const body = await res.json().catch(() => null) as ({ detail?: string; errors?: Record<string, string[]> } & Partial<ApplyConfigReport>) | null;
  if (!res.ok) {
    const errors = Object.entries(body?.errors ?? {});
    throw new ConfigFileError(errors.length
      ? errors.map(([entry, messages]) => `${file.path}: ${entry}: ${messages.join('; ')}`)
      : [`${file.path}: the Worker refused it (${res.status}): ${body?.detail ?? ''}`]);
  }
  return body as ApplyConfigReport;
}

export function describeReport(report: ApplyConfigReport): string {
  const count = (list: { change: string }[], change: string) => list.filter((x) => x.change === change).length;
  const part = (what: string, list: { change: string }[]) =>
    `${what}: ${count(list, 'created')} created, ${count(list, 'updated')} updated, ${count(list, 'unchanged')} unchanged`;
  const ports = report.printers.map((p) => `"${p.displayName}" on ${p.tcpListenPort}`).join(', ');
  return `${part('workspaces', report.workspaces)}; ${part('printers', report.printers)}${ports ? ` (${ports})` : ''}`;
}

/**
 * Every declared port must be free on this machine: `npm start` runs before its bridge binds
 * anything, so a port that cannot be bound now is held by another program (or another
 * Slipstream), and the printer could never listen on it.
 */
export async function assertDeclaredPortsFree(file: DeclaredFile, bindHost: string): Promise<void> {
  const problems: string[] = [];
  for (const w of file.config.workspaces) {
    for (const p of w.printers) {
      if (p.tcpListenPort === undefined) continue;
      const error = await new Promise<string | null>((done) => {
        const probe = createServer();
        probe.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
        probe.listen({ port: p.tcpListenPort, host: bindHost, exclusive: true }, () => probe.close(() => done(null)));
      });
      if (error) problems.push(`${file.path}: printer "${p.displayName}" (${p.id}): port ${p.tcpListenPort} cannot be bound on ${bindHost} (${error}): another program holds it`);
    }
  }
  if (problems.length) throw new ConfigFileError(problems);
}
