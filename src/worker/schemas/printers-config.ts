/**
 * "Printers as code" (spec extensions.md): the JSON file named by SLIPSTREAM_CONFIG or
 * `npm start -- --config FILE` declares workspaces (with a known token) and their printers
 * (optionally on known ports). `npm start` validates it with this schema before anything
 * starts, and the Worker's internal route validates the body again with the same schema.
 */
import { z } from '@hono/zod-openapi';
import { Uuid } from './common.ts';
import { settingsFileShape } from './printer-settings.ts';
import { WorkspaceName } from './workspace.ts';

/** Declared tokens are sign-in secrets: short ones would be guessable. */
export const MIN_DECLARED_TOKEN_LENGTH = 16;

export const DeclaredPrinter = z
  .object({
    id: Uuid,
    displayName: z.string().trim().min(1).max(200),
    // The settings a file may declare (schemas/printer-settings.ts, `file`).
    ...settingsFileShape(),
  })
  .strict();

export const DeclaredWorkspace = z
  .object({
    id: Uuid,
    name: WorkspaceName,
    token: z.string().min(MIN_DECLARED_TOKEN_LENGTH, `at least ${MIN_DECLARED_TOKEN_LENGTH} characters`).max(512),
    printers: z.array(DeclaredPrinter).default([]),
  })
  .strict();

/** Reports ids, tokens or ports declared twice, at the second occurrence. */
function noDuplicates(config: { workspaces: z.infer<typeof DeclaredWorkspace>[] }, ctx: z.RefinementCtx): void {
  const seen = { workspace: new Set<string>(), token: new Set<string>(), printer: new Set<string>(), port: new Set<number>() };
  config.workspaces.forEach((w, wi) => {
    if (seen.workspace.has(w.id.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['workspaces', wi, 'id'], message: `workspace id ${w.id} is declared twice` });
    seen.workspace.add(w.id.toLowerCase());
    if (seen.token.has(w.token)) ctx.addIssue({ code: 'custom', path: ['workspaces', wi, 'token'], message: 'this token is already declared for another workspace' });
    seen.token.add(w.token);
    w.printers.forEach((p, pi) => {
      if (seen.printer.has(p.id.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['workspaces', wi, 'printers', pi, 'id'], message: `printer id ${p.id} is declared twice` });
      seen.printer.add(p.id.toLowerCase());
      if (p.tcpListenPort !== undefined) {
        if (seen.port.has(p.tcpListenPort)) ctx.addIssue({ code: 'custom', path: ['workspaces', wi, 'printers', pi, 'tcpListenPort'], message: `port ${p.tcpListenPort} is declared for two printers` });
        seen.port.add(p.tcpListenPort);
      }
    });
  });
}

export const PrintersConfig = z
  .object({
    $schema: z.string().optional(),
    workspaces: z.array(DeclaredWorkspace),
  })
  .strict()
  .superRefine(noDuplicates);

export type PrintersConfig = z.infer<typeof PrintersConfig>;
export type DeclaredPrinter = z.infer<typeof DeclaredPrinter>;
export type DeclaredWorkspace = z.infer<typeof DeclaredWorkspace>;

/** What applying the file did, per entry: the second start of an unchanged file says `unchanged` everywhere. */
export const ConfigChange = z.enum(['created', 'updated', 'unchanged']);
export const ApplyConfigReport = z.object({
  workspaces: z.array(z.object({ id: Uuid, change: ConfigChange })),
  printers: z.array(z.object({ id: Uuid, displayName: z.string(), tcpListenPort: z.number().int(), change: ConfigChange })),
});
export type ApplyConfigReport = z.infer<typeof ApplyConfigReport>;

/**
 * Names the entry a validation issue is about, from the raw (unvalidated) JSON:
 * `workspaces[0] "Shop" › printers[1] "Till 1"` and the field path inside it.
 */
export function describeIssuePath(raw: unknown, path: readonly PropertyKey[]): { entry: string; field: string } {
  const parts: string[] = [];
  let node: unknown = raw;
  let i = 0;
  for (; i + 1 < path.length && (path[i] === 'workspaces' || path[i] === 'printers') && typeof path[i + 1] === 'number'; i += 2) {
    const list = (node as Record<string, unknown> | null)?.[path[i] as string];
    node = Array.isArray(list) ? list[path[i + 1] as number] : undefined;
    const rec = (node ?? {}) as Record<string, unknown>;
    const label = typeof rec.displayName === 'string' ? rec.displayName : typeof rec.name === 'string' ? rec.name : typeof rec.id === 'string' ? rec.id : '';
    parts.push(`${String(path[i])}[${String(path[i + 1])}]${label ? ` "${label}"` : ''}`);
  }
  const rest = path.slice(i).map(String).join('.');
  return { entry: parts.join(' › ') || '(top level)', field: rest || '(the entry itself)' };
}

/** One line per issue: `FILE: ENTRY: field FIELD: MESSAGE`. */
export function formatConfigIssues(file: string, raw: unknown, issues: readonly { path: readonly PropertyKey[]; message: string; keys?: readonly string[] }[]): string[] {
  return issues.map((issue) => {
    // An unknown key (a typo such as "tcpPort") is named as the field.
    const { entry, field } = describeIssuePath(raw, issue.keys?.length ? [...issue.path, issue.keys.join(', ')] : issue.path);
    return `${file}: ${entry}: field ${field}: ${issue.message}`;
  });
}
