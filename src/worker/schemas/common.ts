import { z } from '@hono/zod-openapi';

export const Uuid = z.string().uuid();
export const DateTime = z.string().datetime({ offset: true }).openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });
export const NullableDateTime = DateTime.nullable();
export const Int32 = z.number().int().min(-2147483648).max(2147483647);

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi('ProblemDetails');

/** Standard error responses for a route, documented as problem+json. */
export function problems(...statuses: number[]) {
  const out: Record<number, { description: string; content: { 'application/problem+json': { schema: typeof ProblemSchema } } }> = {};
  const text: Record<number, string> = {
    400: 'Validation failure or bad argument',
    401: 'Missing, malformed, expired or unknown credentials',
    403: 'Forbidden for this workspace',
    404: 'Not found in the caller\u2019s workspace',
    409: 'Already exists, or a limit of the workspace is reached',
    429: 'Too many requests from this client address (see Retry-After)',
    500: 'Server failure (including a listener that failed to start)',
    501: 'Not implemented',
  };
  for (const s of statuses) out[s] = { description: text[s] ?? 'Error', content: { 'application/problem+json': { schema: ProblemSchema } } };
  return out;
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const PrinterIdParam = z.object({
  id: Uuid.openapi({ param: { name: 'id', in: 'path' } }),
});

export const sse = (description: string) => ({
  description,
  content: { 'text/event-stream': { schema: z.string().openapi({ description: 'Server-Sent Events stream' }) } },
});

export const bearerSecurity = [{ Bearer: [] as string[] }];
