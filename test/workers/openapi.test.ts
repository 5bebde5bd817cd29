/**
 * The machine-readable interface listing (contract section 9): /swagger/v1/swagger.json is
 * valid OpenAPI 3.1 listing every contract path and method; /swagger is served with local
 * assets only (decisions.md: never from a CDN).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { call } from './helpers.ts';

let doc: any;

beforeAll(async () => {
  const res = await call('/swagger/v1/swagger.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  doc = await res.json();
});

/** Paths Slipstream adds beyond the contract, as docs/contract/extensions.md names them. */
const EXTENSIONS: [string, string][] = [
  ['get', '/api/printer-models'],
  ['get', '/api/printers/{id}/documents/{documentId}'],
  ['get', '/api/printers/{id}/documents/next'],
  ['get', '/api/workspaces/webhook'],
  ['put', '/api/workspaces/webhook'],
  ['delete', '/api/workspaces/webhook'],
];
// docs/contract/extensions.md "Consistency and readiness".
EXTENSIONS.push(['get', '/api/health']);
// docs/contract/extensions.md "Sites: a bridge per LAN".
EXTENSIONS.push(['post', '/api/workspaces/bridges'], ['get', '/api/workspaces/bridges'], ['delete', '/api/workspaces/bridges/{bridgeId}']);
// docs/contract/extensions.md "HTTP printers on the printer's own port": the addresses the printer
// page shows (the LPD one on the port the printer's bridge reports; docs/decisions.md).
EXTENSIONS.push(['get', '/api/printers/{id}/addresses']);

/** Every path and method of contract section 4 (OpenAPI path template syntax). */
const CONTRACT: [string, string][] = [
  ['post', '/api/auth/login'],
  ['post', '/api/auth/logout'],
  ['post', '/api/auth/session-cookie'],
  ['post', '/api/workspaces'],
  ['get', '/api/workspaces'],
  ['patch', '/api/workspaces'],
  ['delete', '/api/workspaces'],
  ['get', '/api/workspaces/summary'],
  ['get', '/api/workspaces/admin-statistics'],
  ['get', '/api/workspaces/greeting'],
  ['get', '/api/workspaces/retention/cleanup-summary'],
  ['post', '/api/workspaces/retention/cleanup'],
  ['get', '/api/workspaces/connections'],
  ['post', '/api/printers'],
  ['get', '/api/printers'],
  ['get', '/api/printers/{id}'],
  ['put', '/api/printers/{id}'],
  ['delete', '/api/printers/{id}'],
  ['post', '/api/printers/{id}/pin'],
  ['patch', '/api/printers/{id}/operational-flags'],
  ['patch', '/api/printers/{id}/drawers'],
  ['get', '/api/printers/sidebar'],
  ['get', '/api/printers/{id}/documents/canvas'],
  ['delete', '/api/printers/{id}/documents'],
  ['post', '/api/printers/{id}/documents/import'],
  ['post', '/api/printers/{id}/documents/last-viewed'],
  ['get', '/api/printers/{id}/nv-images'],
  ['put', '/api/printers/{id}/nv-images/{slot}'],
  ['delete', '/api/printers/{id}/nv-images/{slot}'],
  ['get', '/api/media/{mediaId}'],
  ['get', '/api/printers/sidebar/stream'],
  ['get', '/api/printers/{id}/runtime/stream'],
  ['get', '/api/printers/{id}/documents/canvas/stream'],
];
const STREAMS = ['/api/printers/sidebar/stream', '/api/printers/{id}/runtime/stream', '/api/printers/{id}/documents/canvas/stream'];
const ANONYMOUS = new Set(['post /api/workspaces', 'post /api/auth/login', 'get /api/workspaces/greeting', 'get /api/media/{mediaId}']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function resolve(schema: any): any {
  if (schema?.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return doc.components.schemas[name];
  }
  return schema;
}

describe('/swagger/v1/swagger.json', () => {
  it('is OpenAPI 3.1 with version label v1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('v1');
    expect(typeof doc.info.title).toBe('string');
  });

  it('validates with @readme/openapi-parser (and the validator catches a broken document)', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify((result as any).errors ?? []).slice(0, 2000)).toBe(true);
    const broken = structuredClone(doc);
    broken.paths['/api/broken'] = { get: { responses: 'nope' } };
    expect((await validate(broken)).valid).toBe(false);
  });

  it('lists every contract path and method', () => {
    const missing = CONTRACT.filter(([m, p]) => !doc.paths[p]?.[m]).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect(missing).toEqual([]);
  });

  it('lists nothing outside the contract and its named extensions (no internal bridge routes, no raw TCP)', () => {
    const listed: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of METHODS) if (item[m]) listed.push(`${m} ${path}`);
    }
    const contract = new Set([...CONTRACT, ...EXTENSIONS].map(([m, p]) => `${m} ${p}`));
    expect(listed.filter((x) => !contract.has(x))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });

  it('declares path parameters for every template segment', () => {
    for (const [m, p] of CONTRACT) {
      const op = doc.paths[p][m];
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
      const params = [...(doc.paths[p].parameters ?? []), ...(op.parameters ?? [])].filter((x: any) => x.in === 'path').map((x: any) => x.name);
      expect(params.sort(), `${m} ${p}`).toEqual(names.sort());
    }
  });

  it('stream paths answer text/event-stream', () => {
    for (const p of STREAMS) {
      const ok = doc.paths[p].get.responses['200'];
      expect(ok?.content?.['text/event-stream'], p).toBeDefined();
    }
  });

  it('every request body has a schema; JSON bodies are objects; the NV upload is multipart with a binary file', () => {
    const withBody = CONTRACT.filter(([m, p]) => doc.paths[p][m].requestBody);
    const expected = [
      'post /api/auth/login', 'post /api/workspaces', 'patch /api/workspaces', 'post /api/workspaces/retention/cleanup', 'post /api/printers',
      'put /api/printers/{id}', 'post /api/printers/{id}/pin', 'patch /api/printers/{id}/operational-flags', 'patch /api/printers/{id}/drawers',
      'post /api/printers/{id}/documents/import', 'post /api/printers/{id}/documents/last-viewed', 'put /api/printers/{id}/nv-images/{slot}',
    ];
    expect(withBody.map(([m, p]) => `${m} ${p}`).sort()).toEqual(expected.sort());
    for (const [m, p] of withBody) {
      const content = doc.paths[p][m].requestBody.content;
      const types = Object.keys(content);
      expect(types.length, `${m} ${p}`).toBeGreaterThan(0);
      for (const t of types) expect(content[t].schema, `${m} ${p} ${t}`).toBeDefined();
      if (p.endsWith('{slot}')) {
        const schema = resolve(content['multipart/form-data'].schema);
        expect(schema.properties.file.format).toBe('binary');
      } else {
        expect(resolve(content['application/json'].schema).type, `${m} ${p}`).toBe('object');
      }
    }
  });

  it('request schemas carry the contract field names', () => {
    const body = (m: string, p: string) => resolve(doc.paths[p][m].requestBody.content['application/json'].schema);
    expect(Object.keys(body('post', '/api/workspaces').properties).sort()).toEqual(['id', 'workspaceName']);
    expect(Object.keys(body('post', '/api/auth/login').properties)).toEqual(['token']);
    expect(Object.keys(body('patch', '/api/workspaces').properties).sort()).toEqual(
      ['darkColorScheme', 'documentRetentionDays', 'lightColorScheme', 'name', 'tcpWhitelistEnabled', 'tcpWhitelistEntries'],
    );
    const printer = body('post', '/api/printers');
    expect(Object.keys(printer.properties).sort()).toEqual(['printer', 'settings']);
    expect(Object.keys(body('post', '/api/printers/{id}/documents/import').properties).sort()).toEqual(['data', 'format']);
    expect(Object.keys(body('post', '/api/workspaces/retention/cleanup').properties).sort()).toEqual(['maxDocuments', 'retentionDaysOverride']);
  });

  it('every operation has a success response; errors are problem+json', () => {
    for (const [m, p] of CONTRACT) {
      const responses = doc.paths[p][m].responses;
      if (p.endsWith('/last-viewed')) {
        // a stub: the contract gives it 501 only
        expect(Object.keys(responses)).toContain('501');
      } else {
        const success = Object.keys(responses).filter((s) => /^2\d\d$/.test(s));
        expect(success.length, `${m} ${p}`).toBeGreaterThan(0);
      }
      for (const [status, r] of Object.entries<any>(responses)) {
        if (/^[45]\d\d$/.test(status) && r.content) expect(Object.keys(r.content), `${m} ${p} ${status}`).toEqual(['application/problem+json']);
      }
    }
    expect(Object.keys(doc.paths['/api/media/{mediaId}'].get.responses['200'].content)).toContain('image/png');
  });

  it('authenticated operations declare bearer security; anonymous ones do not', () => {
    const schemes = doc.components?.securitySchemes ?? {};
    const bearer = Object.entries<any>(schemes).find(([, s]) => s.type === 'http' && s.scheme === 'bearer');
    expect(bearer).toBeDefined();
    for (const [m, p] of CONTRACT) {
      const security = doc.paths[p][m].security ?? doc.security ?? [];
      const secured = security.some((s: any) => Object.keys(s).includes(bearer![0]));
      expect(secured, `${m} ${p}`).toBe(!ANONYMOUS.has(`${m} ${p}`));
    }
  });

  it('response schemas use camelCase property names', () => {
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      for (const k of Object.keys(schema.properties ?? {})) expect(k, `${name}.${k}`).toMatch(/^[a-z][A-Za-z0-9]*$|^(Limit|BeforeId)$/);
    }
  });
});

describe('operation ids and tags (docs/contract/extensions.md)', () => {
  it('every operation has a unique camelCase operationId and exactly one tag', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        expect(op.operationId, `${m} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        expect(op.tags, `${m} ${path}`).toHaveLength(1);
        ids.push(op.operationId);
      }
    }
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("the bearer scheme's description (Swagger's Authorize) names POST /api/auth/login", () => {
    const bearer = Object.values<any>(doc.components.securitySchemes).find((s) => s.scheme === 'bearer');
    expect(bearer.description).toContain('POST /api/auth/login');
    expect(bearer.description).toMatch(/access ?token/i);
  });
});

describe('/swagger', () => {
  it('serves an HTML page that loads Swagger UI from local /swagger-ui/ assets and no CDN', async () => {
    const res = await call('/swagger');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/swagger-ui/i);
    const refs = [...html.matchAll(/(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.some((r) => r.startsWith('/swagger-ui/'))).toBe(true);
    expect(refs.some((r) => /\.js$/.test(r))).toBe(true);
    for (const r of refs) expect(r, r).not.toMatch(/^(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).toContain('/swagger/v1/swagger.json');
  });
});
