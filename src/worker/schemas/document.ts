import { z } from '@hono/zod-openapi';
import { TRANSPORTS } from '../../shared/transports.ts';
import { DateTime, Int32, NullableDateTime, Uuid } from './common.ts';
import { Protocol } from './printer.ts';
import { DRAW_MODES } from '../../engines/canvas/model.ts';

const Rotation = z.enum(['none', '90', '180', '270']);
/** How an element's dots act on what was drawn before it (black prints, white erases, xor flips); black when absent. */
const DrawMode = z.enum(DRAW_MODES);
const common = {
  /** At most the first 64 bytes of the command; drawn elements leave it to their command's debug element (""). */
  commandRaw: z.string(),
  /** True when `commandRaw` was cut at 64 bytes; `lengthInBytes` is exact, the whole bytes are the document's raw bytes. */
  commandRawTruncated: z.literal(true).optional(),
  commandDescription: z.array(z.string()),
  lengthInBytes: Int32,
};

export const TextElementDto = z
  .object({
    type: z.literal('text'),
    ...common,
    text: z.string(),
    x: z.number(), y: z.number(), width: z.number(), height: z.number(),
    fontName: z.string(), charSpacing: z.number(),
    isBold: z.boolean(), isUnderline: z.boolean(), isReverse: z.boolean(),
    charScaleX: z.number(), charScaleY: z.number(), rotation: Rotation,
    isItalic: z.boolean().optional(), isUpsideDown: z.boolean().optional(), isDoubleStrike: z.boolean().optional(),
    underlineThickness: z.number().optional(),
    drawMode: DrawMode.optional(),
    /** The run mirrored end to end before `rotation` turns it (ZPL ^PM). */
    isMirrored: z.boolean().optional(),
  })
  .openapi('CanvasTextElementDto');

export const MediaRefDto = z
  .object({ contentType: z.string(), size: z.number().int(), url: z.string(), storageKey: z.string() })
  .openapi('CanvasMediaDto');

export const ImageElementDto = z
  .object({
    type: z.literal('image'),
    ...common,
    media: MediaRefDto,
    x: z.number(), y: z.number(), width: z.number(), height: z.number(), rotation: Rotation,
    drawMode: DrawMode.optional(),
  })
  .openapi('CanvasImageElementDto');

export const LineElementDto = z
  .object({ type: z.literal('line'), ...common, x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number(), thickness: z.number() })
  .openapi('CanvasLineElementDto');

export const BoxElementDto = z
  .object({
    type: z.literal('box'), ...common,
    x: z.number(), y: z.number(), width: z.number(), height: z.number(), thickness: z.number(), isFilled: z.boolean(),
    drawMode: DrawMode.optional(),
  })
  .openapi('CanvasBoxElementDto');

export const DebugElementDto = z
  .object({ type: z.literal('debug'), ...common, debugType: z.string(), parameters: z.record(z.string(), z.string()).optional() })
  .openapi('CanvasDebugElementDto');

export const CanvasElementDto = z
  .discriminatedUnion('type', [TextElementDto, ImageElementDto, LineElementDto, BoxElementDto, DebugElementDto])
  .openapi('CanvasElementDto');

export const CanvasDto = z
  .object({ widthInDots: Int32, heightInDots: Int32.optional(), items: z.array(CanvasElementDto) })
  .openapi('CanvasDto');

export const RenderedDocumentDto = z
  .object({
    id: Uuid,
    printJobId: Uuid,
    printerId: Uuid,
    timestamp: DateTime,
    protocol: Protocol,
    /** How the document arrived (docs/contract/extensions.md "Transports"). */
    transport: z.enum(TRANSPORTS),
    /** A job that drew nothing and only asked for status (docs/contract/extensions.md "Status polls"). */
    isStatusPoll: z.boolean(),
    canvases: z.array(CanvasDto),
    clientAddress: z.string().optional(),
    bytesReceived: Int32,
    bytesSent: Int32,
    errorMessages: z.array(z.string()).optional(),
  })
  .openapi('RenderedDocumentDto');

export const DocumentListResponse = z
  .object({
    result: z
      .object({
        items: z.array(RenderedDocumentDto).optional(),
        hasMore: z.boolean(),
        nextBeforeId: Uuid.optional(),
        nextBeforeCreatedAt: NullableDateTime.optional(),
        /** Status polls the printer holds (listed in `items` unless IncludeStatusPolls=false). */
        statusPollCount: Int32.optional(),
      })
      .openapi('RenderedDocumentDtoPagedResult'),
  })
  .openapi('CanvasDocumentListResponseDto');

export const DocumentListQuery = z.object({
  Limit: z.coerce.number().int().min(1).max(100).optional().openapi({ param: { name: 'Limit', in: 'query' } }),
  BeforeId: Uuid.optional().openapi({ param: { name: 'BeforeId', in: 'query' } }),
  IncludeStatusPolls: z.enum(['true', 'false']).optional().openapi({ param: { name: 'IncludeStatusPolls', in: 'query' } }),
  Contains: z.string().min(1).max(1000).optional().openapi({
    param: { name: 'Contains', in: 'query' },
    description: 'Only documents whose printed text contains this (case-insensitive)',
  }),
});

export const DocumentIdParams = z.object({
  id: Uuid.openapi({ param: { name: 'id', in: 'path' } }),
  documentId: Uuid.openapi({ param: { name: 'documentId', in: 'path' } }),
});

export const DocumentFormQuery = z.object({
  format: z.enum(['json', 'png', 'pdf', 'text', 'raw']).optional().openapi({
    param: { name: 'format', in: 'query' },
    description: 'The form of the answer; without it, the Accept header chooses (image/png, application/pdf, text/plain, application/octet-stream), else JSON',
  }),
  canvas: z.coerce.number().int().min(0).optional().openapi({
    param: { name: 'canvas', in: 'query' },
    description: 'PNG only: the one canvas to draw (0-based); all canvases stacked with a 24-dot gap without it',
  }),
});

export const NextDocumentQuery = z.object({
  after: Uuid.optional().openapi({ param: { name: 'after', in: 'query' }, description: 'A document of this printer; without it, documents finalised after the request began' }),
  timeoutSeconds: z.coerce.number().int().min(0).max(60).optional().openapi({ param: { name: 'timeoutSeconds', in: 'query' }, description: 'How long to wait (0..60, default 30)' }),
});

export const CanvasStreamQuery = z.object({
  IncludeStatusPolls: z.enum(['true', 'false']).optional().openapi({ param: { name: 'IncludeStatusPolls', in: 'query' } }),
});

/** Longest import payload (characters of `data`). */
export const MAX_IMPORT_CHARS = 48 * 1024 * 1024;

export const ImportRequest = z
  .object({ data: z.string().max(MAX_IMPORT_CHARS), format: z.enum(['Hex', 'Base64']).optional() })
  .openapi('ImportDocumentRequestDto');

export const LastViewedRequest = z.object({ documentId: Uuid }).openapi('SetLastViewedDocumentRequestDto');

export const MediaIdParam = z.object({ mediaId: Uuid.openapi({ param: { name: 'mediaId', in: 'path' } }) });
