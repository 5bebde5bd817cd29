/**
 * The OpenAPI document served by the running Worker is valid OpenAPI 3.1 (checked by a real
 * validator in Node) and lists every HTTP endpoint of the contract; Swagger UI works offline.
 */
import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { baseUrl } from './api.ts';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS from 'openapi-typescript';

const CONTRACT: [string, string][] = [
  ['post', '/api/auth/login'], ['post', '/api/auth/logout'], ['post', '/api/auth/session-cookie'],
  ['post', '/api/workspaces'], ['get', '/api/workspaces'], ['patch', '/api/workspaces'], ['delete', '/api/workspaces'],
  ['get', '/api/workspaces/summary'], ['get', '/api/workspaces/admin-statistics'], ['get', '/api/workspaces/greeting'],
  ['get', '/api/workspaces/retention/cleanup-summary'], ['post', '/api/workspaces/retention/cleanup'], ['get', '/api/workspaces/connections'],
  ['post', '/api/printers'], ['get', '/api/printers'], ['get', '/api/printers/{id}'], ['put', '/api/printers/{id}'],
  ['delete', '/api/printers/{id}'], ['post', '/api/printers/{id}/pin'], ['patch', '/api/printers/{id}/operational-flags'],
  ['patch', '/api/printers/{id}/drawers'], ['get', '/api/printers/sidebar'], ['get', '/api/printers/{id}/documents/canvas'],
  ['delete', '/api/printers/{id}/documents'], ['post', '/api/printers/{id}/documents/import'],
  ['post', '/api/printers/{id}/documents/last-viewed'], ['get', '/api/printers/{id}/nv-images'],
  ['put', '/api/printers/{id}/nv-images/{slot}'], ['delete', '/api/printers/{id}/nv-images/{slot}'],
  ['get', '/api/media/{mediaId}'], ['get', '/api/printers/sidebar/stream'], ['get', '/api/printers/{id}/runtime/stream'],
  ['get', '/api/printers/{id}/documents/canvas/stream'],
];

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and names every contract endpoint', async () => {
    const doc = (await (await fetch(`${baseUrl()}/swagger/v1/swagger.json`)).json()) as any;
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    for (const [method, path] of CONTRACT) expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeTruthy();
    for (const path of ['/api/printers/sidebar/stream', '/api/printers/{id}/runtime/stream', '/api/printers/{id}/documents/canvas/stream']) {
      expect(doc.paths[path].get.responses['200'].content['text/event-stream']).toBeTruthy();
    }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal'))).toBe(false);
  });

  it('Swagger UI is served with local assets only', async () => {
    const html = await (await fetch(`${baseUrl()}/swagger`)).text();
    expect(html).toContain('/swagger-ui/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/swagger-ui/swagger-ui-bundle.js', '/swagger-ui/swagger-ui.css', '/swagger-ui/swagger-ui-init.js']) {
      const res = await fetch(`${baseUrl()}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
  });
});

describe('a generated client (openapi-typescript)', () => {
  it('type-checks against the served document: operation ids, document forms, webhook', async () => {
    const doc = (await (await fetch(`${baseUrl()}/swagger/v1/swagger.json`)).json()) as any;
    const dir = mkdtempSync(join(tmpdir(), 'slipstream-openapi-'));
    writeFileSync(join(dir, 'schema.ts'), await openapiTS(doc));
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { components, operations, paths } from './schema';",
        "type Doc = operations['getDocument']['responses'][200]['content']['application/json'];",
        "export const firstCanvasWidth = (d: Doc): number => d.canvases[0].widthInDots;",
        "type Next = paths['/api/printers/{id}/documents/next']['get'];",
        "export const nextQuery: Next['parameters']['query'] = { after: 'x', timeoutSeconds: 5 };",
        "export const listQuery: operations['listDocuments']['parameters']['query'] = { Contains: 'total', Limit: 10 };",
        "export const hook: components['schemas']['WebhookCreatedDto'] = { url: 'https://x', isEnabled: true, lastDeliveryAt: null, lastDeliveryStatus: null, signingSecret: 's' };",
        "export const form: NonNullable<operations['getDocument']['parameters']['query']>['format'] = 'png';",
        "// The generated types are real: a wrong field type does not compile.",
        "// @ts-expect-error timeoutSeconds is a number",
        "export const bad: Next['parameters']['query'] = { timeoutSeconds: 'soon' };",
        '',
      ].join('\n'),
    );
    const tsc = resolve(import.meta.dirname, '../../node_modules/typescript/bin/tsc');
    const run = (file: string) =>
      new Promise<string>((res) => {
        execFile(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', join(dir, file)], { cwd: dir }, (_e, out, err) => res(`${out}${err}`));
      });
    expect(await run('use.ts')).toBe('');
    // And the check can fail: a wrong operation id is an error.
    writeFileSync(join(dir, 'wrong.ts'), "import type { operations } from './schema';\nexport type X = operations['noSuchOperation'];\n");
    expect(await run('wrong.ts')).toMatch(/noSuchOperation/);
  }, 120_000);
});
