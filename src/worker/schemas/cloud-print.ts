import { z } from '@hono/zod-openapi';

/**
 * A cloud printer's server (extensions.md "Cloud printers"): the printer polls `url` every
 * `intervalSeconds` while it is Started, as a Star CloudPRNT or Epson Server Direct Print
 * printer of its model does. Which kind a protocol may use: CLOUD_PRINT_PROTOCOLS.
 */
export const CLOUD_PRINT_KINDS = ['StarCloudPrnt', 'EpsonServerDirectPrint'] as const;
export type CloudPrintKind = (typeof CLOUD_PRINT_KINDS)[number];

export const CLOUD_PRINT_PROTOCOLS: Readonly<Record<CloudPrintKind, readonly string[]>> = {
  StarCloudPrnt: ['StarPrnt', 'StarLine'],
  EpsonServerDirectPrint: ['EscPos'],
};

export const DEFAULT_CLOUD_PRINT_INTERVAL_SECONDS = 5;

export const CloudPrint = z
  .object({
    kind: z.enum(CLOUD_PRINT_KINDS).openapi({ description: 'StarCloudPrnt (protocols StarPrnt, StarLine) or EpsonServerDirectPrint (EscPos)' }),
    url: z.string().url().max(2000).openapi({ description: 'The server the printer polls (http or https)' }),
    intervalSeconds: z.number().int().min(1).max(60).default(DEFAULT_CLOUD_PRINT_INTERVAL_SECONDS),
  })
  .openapi('CloudPrintSettingsDto');
export type CloudPrintSettings = z.infer<typeof CloudPrint>;
