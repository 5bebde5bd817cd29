import { z } from '@hono/zod-openapi';
import { DateTime, Int32, NullableDateTime, Uuid } from './common.ts';
import { DARK_SCHEMES, LIGHT_SCHEMES } from '../services/color-schemes.ts';

export const Role = z.enum(['Normal', 'Admin']);

export const WorkspaceDto = z
  .object({
    id: Uuid,
    name: z.string(),
    createdAt: DateTime,
    role: Role,
    documentRetentionDays: Int32,
    tcpWhitelistEnabled: z.boolean(),
    tcpWhitelistEntries: z.string(),
    lastApiReadAt: NullableDateTime,
    lastWebReadAt: NullableDateTime,
    lightColorScheme: z.string().optional(),
    darkColorScheme: z.string().optional(),
  })
  .openapi('WorkspaceDto');

export const WorkspaceName = z.string().trim().min(1).max(200);

export const CreateWorkspaceRequest = z
  .object({ id: Uuid, workspaceName: WorkspaceName })
  .openapi('CreateWorkspaceRequestDto');

export const WorkspaceResponse = z
  .object({ id: Uuid, name: z.string(), token: z.string() })
  .openapi('WorkspaceResponseDto');

export const UpdateWorkspaceRequest = z
  .object({
    name: WorkspaceName.optional(),
    documentRetentionDays: z.number().int().min(1).max(3650).optional(),
    tcpWhitelistEnabled: z.boolean().optional(),
    tcpWhitelistEntries: z.string().max(20000).optional(),
    lightColorScheme: z.enum(LIGHT_SCHEMES).optional(),
    darkColorScheme: z.enum(DARK_SCHEMES).optional(),
  })
  .openapi('UpdateWorkspaceRequestDto');

export const LoginRequest = z.object({ token: z.string().min(1).max(512) }).openapi('LoginRequestDto');

export const LoginResponse = z
  .object({ accessToken: z.string(), tokenType: z.string(), expiresInSeconds: z.number().int(), workspace: WorkspaceDto })
  .openapi('LoginResponseDto');

export const WorkspaceSummary = z
  .object({
    totalPrinters: Int32,
    totalDocuments: z.number().int(),
    documentsLast24h: z.number().int(),
    lastDocumentAt: NullableDateTime.optional(),
    createdAt: DateTime,
  })
  .openapi('WorkspaceSummaryDto');

export const AdminStatisticsRow = z
  .object({
    workspaceId: Uuid,
    workspaceName: z.string(),
    role: Role,
    printerCount: Int32,
    documentCount: z.number().int(),
    mediaCount: z.number().int(),
    mediaBytes: z.number().int(),
    documentsLast24h: z.number().int(),
    lastDocumentAt: NullableDateTime.optional(),
    documentRetentionDays: Int32,
    lastApiReadAt: NullableDateTime.optional(),
    lastWebReadAt: NullableDateTime.optional(),
  })
  .openapi('AdminWorkspaceStatisticsRowDto');

export const AdminStatistics = z
  .object({
    totalWorkspaces: Int32,
    activeWorkspacesLast24h: Int32,
    activeWorkspacesLast7d: Int32,
    totalPrinters: Int32,
    totalDocuments: z.number().int(),
    totalMedia: z.number().int(),
    totalMediaBytes: z.number().int(),
    documentsLast24h: z.number().int(),
    documentsLast7d: z.number().int(),
    mediaLast24h: z.number().int(),
    mediaLast7d: z.number().int(),
    lastDocumentAt: NullableDateTime.optional(),
    workspaces: z.array(AdminStatisticsRow).optional(),
  })
  .openapi('AdminWorkspaceStatisticsDto');

export const Greeting = z
  .object({ morning: z.string().optional(), afternoon: z.string().optional(), evening: z.string().optional(), general: z.string() })
  .openapi('GreetingResponseDto');

export const RetentionDaysOverride = z.coerce.number().int().min(0).max(3650);

export const CleanupSummaryQuery = z.object({
  retentionDaysOverride: RetentionDaysOverride.optional().openapi({ param: { name: 'retentionDaysOverride', in: 'query' } }),
});

export const CleanupSummary = z
  .object({ expiredDocuments: Int32, retentionMediaFiles: Int32 })
  .openapi('DocumentRetentionCleanupSummaryDto');

export const CleanupRequest = z
  .object({
    maxDocuments: z.number().int().min(1).max(1_000_000),
    retentionDaysOverride: z.number().int().min(0).max(3650).nullable().optional(),
  })
  .openapi('RunDocumentRetentionCleanupRequestDto');

export const CleanupResult = z
  .object({ deletedDocuments: Int32, deletedMedia: Int32 })
  .openapi('DocumentRetentionCleanupResultDto');

export const ConnectionsQuery = z.object({
  minutes: z.coerce.number().int().min(1).max(1440).optional().openapi({ param: { name: 'minutes', in: 'query' } }),
});

export const TcpConnectionEntry = z
  .object({ clientIp: z.string(), connectedAt: DateTime, allowed: z.boolean(), connectionType: z.enum(['Tcp']) })
  .openapi('TcpConnectionEntryDto');

export const WebhookDto = z
  .object({
    url: z.string(),
    isEnabled: z.boolean(),
    lastDeliveryAt: NullableDateTime,
    /** HTTP status of the last delivery attempt; 0 when the receiver did not answer. */
    lastDeliveryStatus: Int32.nullable(),
  })
  .openapi('WebhookDto');

export const WebhookCreatedDto = WebhookDto.extend({
  /** The HMAC-SHA256 key for X-Slipstream-Signature; shown only in this answer. */
  signingSecret: z.string(),
}).openapi('WebhookCreatedDto');

export const PutWebhookRequest = z
  .object({
    url: z.string().trim().max(2048).url().refine((u) => /^https?:\/\//i.test(u), 'The URL must be http:// or https://'),
  })
  .openapi('PutWebhookRequestDto');
