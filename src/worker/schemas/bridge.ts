import { z } from '@hono/zod-openapi';
import { DateTime, Int32, Uuid } from './common.ts';

/** A host name or address the site's POS terminals reach the bridge at (no scheme, no port). */
const PublicHost = z.string().trim().min(1).max(253)
  .regex(/^[A-Za-z0-9.:\-[\]]+$/, 'a host name or IP address, without scheme or port')
  .openapi({ example: 'shop-12.example.net' });

export const CreateBridgeRequest = z
  .object({ name: z.string().trim().min(1).max(200), publicHost: PublicHost })
  .openapi('CreateBridgeRequestDto');

export const CreatedBridgeDto = z
  .object({
    id: Uuid,
    name: z.string(),
    publicHost: z.string(),
    token: z.string().openapi({ description: 'The bridge\u2019s BRIDGE_TOKEN; shown only in this response (stored hashed)' }),
  })
  .openapi('CreatedBridgeDto');

export const BridgeDto = z
  .object({
    id: Uuid,
    name: z.string(),
    publicHost: z.string(),
    createdAt: DateTime,
    isConnected: z.boolean(),
    lastSeenAt: DateTime.optional().openapi({ description: 'When the bridge last connected or disconnected; omitted until it first connects' }),
    remoteAddress: z.string().optional().openapi({ description: 'The address it last connected from' }),
    version: z.string().optional().openapi({ description: 'Its tcp-bridge version (User-Agent)' }),
    listeningPrinterCount: Int32.openapi({ description: 'Printers whose port this bridge has bound now' }),
  })
  .openapi('BridgeDto');

export const BridgeIdParam = z.object({
  bridgeId: Uuid.openapi({ param: { name: 'bridgeId', in: 'path' } }),
});
