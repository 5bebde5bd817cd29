import type { Context } from 'hono';

/** An error that maps to one problem+json response (contract section 7). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, errors?: Record<string, string[]>) =>
  new HttpProblem(400, 'Bad Request', detail, errors);
export const unauthorized = (detail = 'Authentication failed') => new HttpProblem(401, 'Unauthorized', detail);
export const forbidden = (detail = 'Forbidden') => new HttpProblem(403, 'Forbidden', detail);
export const notFound = (detail = 'Not found') => new HttpProblem(404, 'Not Found', detail);
export const conflict = (detail: string) => new HttpProblem(409, 'Conflict', detail);
export const serverError = (detail: string) => new HttpProblem(500, 'Internal Server Error', detail);

export function problemResponse(
  path: string,
  status: number,
  title: string,
  detail: string,
  errors?: Record<string, string[]>,
): Response {
  const body: Record<string, unknown> = {
    type: `https://httpstatuses.io/${status}`,
    title,
    status,
    detail,
    instance: path,
  };
  if (errors) body.errors = errors;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

export function problem(c: Context, p: HttpProblem): Response {
  return problemResponse(new URL(c.req.url).pathname, p.status, p.title, p.message, p.errors);
}
