import { z } from '@hono/zod-openapi';
import { MODEL_PROTOCOLS, MULTI_BYTE_ENCODINGS } from '../../engines/models/index.ts';
import { Int32 } from './common.ts';

export const MultiByteEncoding = z.enum(MULTI_BYTE_ENCODINGS).openapi({
  description: 'How Kanji-mode (FS &) and Star multi-byte text decode; None: every byte is one character',
});

export const PrinterFontDto = z
  .object({ name: z.string(), widthInDots: Int32, heightInDots: Int32 })
  .openapi('PrinterFontDto');

const CodeTables = z.record(z.string(), z.string()).openapi({
  description: 'Code-table number (ESC t / Star ESC GS t / EPL I / ZPL ^CI) → table name (a @point-of-sale/codepage-encoder id)',
});

export const PrinterModelDto = z
  .object({
    id: z.string(),
    vendor: z.string(),
    name: z.string(),
    protocols: z.array(z.enum(MODEL_PROTOCOLS)).openapi({ description: 'Protocols the model speaks; the first is its native one' }),
    dpi: Int32,
    defaultWidthInDots: Int32,
    fonts: z.array(PrinterFontDto),
    codeTables: CodeTables.openapi({ description: 'The numbering of the model\u2019s native (first) protocol' }),
    codeTablesByProtocol: z.partialRecord(z.enum(MODEL_PROTOCOLS), CodeTables).openapi({ description: 'The numbering in every protocol the model speaks' }),
    multiByteEncodings: z.array(MultiByteEncoding),
    defaultMultiByteEncoding: MultiByteEncoding,
  })
  .openapi('PrinterModelDto');
