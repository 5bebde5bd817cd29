/**
 * The OpenAPI document served by the running Worker is valid OpenAPI 3.1 (checked by a real
 * validator in Node) and lists every HTTP endpoint of the contract; Swagger UI works offline.
 */
import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { baseUrl } from './api.ts';

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
