import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-types.ts';
import { bearerSecurity, json, PrinterIdParam, problems } from '../schemas/common.ts';
import { NvImageDto, NvSlotParams } from '../schemas/printer.ts';
import { requireAuth } from '../auth/middleware.ts';
import { visiblePrinter } from '../services/printer-access.ts';
import { deleteNvImage, listNvImages, nvImageDto, saveNvImage } from '../services/nv-images.ts';
import { decodeUploadedImage } from '../../engines/raster/image-decode.ts';
import { badRequest, notFound } from '../http/problem.ts';
import { printerStub } from '../services/notify.ts';

/** Upload limits (decisions.md): PNG or BMP up to 1 MiB, printer width, 2048 dots high. */
const MAX_UPLOAD_BYTES = 1024 * 1024;
const MAX_HEIGHT = 2048;

export const nvImageRoutes = new OpenAPIHono<AppEnv>();
const tags = ['NV images'];
const authed = { security: bearerSecurity, middleware: [requireAuth] };

nvImageRoutes.openapi(
  createRoute({
    method: 'get', path: '/api/printers/{id}/nv-images', operationId: 'listNvImages', tags, ...authed, summary: 'NV bit image slots in use',
    request: { params: PrinterIdParam },
    responses: { 200: json(z.array(NvImageDto), 'Slots'), ...problems(400, 401, 404) },
  }),
  async (c) => {
    const row = await visiblePrinter(c, c.req.valid('param').id, 'read');
    return c.json((await listNvImages(c.env, row.id)).map(nvImageDto), 200);
  },
);

nvImageRoutes.openapi(
  createRoute({
    method: 'put', path: '/api/printers/{id}/nv-images/{slot}', operationId: 'putNvImage', tags, ...authed,
    summary: 'Store an image (PNG or BMP, 1 MiB, printer width, 2048 dots high) in an NV slot (1-255), converted to 1-bit',
    request: {
      params: NvSlotParams,
      body: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }) } } },
    },
    responses: { 200: json(NvImageDto, 'Stored image'), ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const { id, slot } = c.req.valid('param');
    const row = await visiblePrinter(c, id, 'write');
    // The route's multipart validator has already parsed (and consumed) the body.
    const file: unknown = (c.req.valid('form') as { file?: unknown }).file;
    if (!file || typeof file === 'string') throw badRequest('The multipart body has no file part named "file"', { file: ['Required'] });
    const bytes = new Uint8Array(await (file as Blob).arrayBuffer());
    const decoded = decodeUploadedImage(bytes, { maxBytes: MAX_UPLOAD_BYTES, maxWidth: row.width_in_dots, maxHeight: MAX_HEIGHT });
    if (!decoded.ok) throw badRequest(decoded.error, { file: [decoded.error] });
    const entry = await saveNvImage(c.env, row, slot, decoded.bitmap);
    await printerStub(c.env, row.id).nvImagesChanged(row.id);
    return c.json(nvImageDto(entry), 200);
  },
);

nvImageRoutes.openapi(
  createRoute({
    method: 'delete', path: '/api/printers/{id}/nv-images/{slot}', operationId: 'deleteNvImage', tags, ...authed, summary: 'Empty an NV slot',
    request: { params: NvSlotParams },
    responses: { 200: { description: 'Deleted' }, ...problems(400, 401, 403, 404) },
  }),
  async (c) => {
    const { id, slot } = c.req.valid('param');
    const row = await visiblePrinter(c, id, 'write');
    if (!(await deleteNvImage(c.env, row.id, slot))) throw notFound(`NV slot ${slot} is empty`);
    await printerStub(c.env, row.id).nvImagesChanged(row.id);
    return c.body(null, 200);
  },
);
