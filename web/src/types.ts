/**
 * DTOs of the public HTTP API as the web UI sees them. They are inferred from the Worker's zod
 * schemas (the single source of the API shapes); `import type` keeps zod out of the bundle.
 */
import type { z } from 'zod';
import type * as W from '../../src/worker/schemas/workspace.ts';
import type * as P from '../../src/worker/schemas/printer.ts';
import type * as D from '../../src/worker/schemas/document.ts';
import type * as M from '../../src/worker/schemas/printer-model.ts';
import type * as B from '../../src/worker/schemas/bridge.ts';

export type { Rotation } from '../../src/engines/canvas/model.ts';

export type ApiCanvasElement = z.infer<typeof D.CanvasElementDto>;
export type ApiImageElement = z.infer<typeof D.ImageElementDto>;
export type MediaRef = z.infer<typeof D.MediaRefDto>;
export type CanvasDto = z.infer<typeof D.CanvasDto>;
export type RenderedDocumentDto = z.infer<typeof D.RenderedDocumentDto>;
export type CanvasDocumentPage = z.infer<typeof D.DocumentListResponse>;
export type PagedResult<T> = Omit<CanvasDocumentPage['result'], 'items'> & { items?: T[] };

export type WorkspaceDto = z.infer<typeof W.WorkspaceDto>;
export type WorkspaceResponseDto = z.infer<typeof W.WorkspaceResponse>;
export type LoginResponseDto = z.infer<typeof W.LoginResponse>;
export type WorkspaceSummaryDto = z.infer<typeof W.WorkspaceSummary>;
export type AdminWorkspaceStatisticsRowDto = z.infer<typeof W.AdminStatisticsRow>;
export type AdminWorkspaceStatisticsDto = z.infer<typeof W.AdminStatistics>;
export type GreetingResponseDto = z.infer<typeof W.Greeting>;
export type CleanupSummaryDto = z.infer<typeof W.CleanupSummary>;
export type CleanupResultDto = z.infer<typeof W.CleanupResult>;
export type TcpConnectionEntryDto = z.infer<typeof W.TcpConnectionEntry>;

export type Protocol = z.infer<typeof P.Protocol>;
export type RuntimeState = z.infer<typeof P.RuntimeState>;
export type DrawerState = z.infer<typeof P.DrawerState>;
export type PrinterDto = z.infer<typeof P.PrinterDto>;
export type PrinterSettingsDto = z.infer<typeof P.PrinterSettingsDto>;
export type PrinterOperationalFlagsDto = z.infer<typeof P.OperationalFlagsDto>;
export type OperationalFlags = Omit<PrinterOperationalFlagsDto, 'printerId' | 'targetState' | 'updatedAt'>;
export type PrinterRuntimeStatusDto = z.infer<typeof P.RuntimeStatusDto>;
export type PrinterResponseDto = z.infer<typeof P.PrinterResponseDto>;
export type PrinterStatusUpdateDto = z.infer<typeof P.PrinterStatusUpdateDto>;
export type PrinterNvImageResponseDto = z.infer<typeof P.NvImageDto>;
export type PrinterWriteRequest = z.input<typeof P.PrinterRequest>;
export type PrinterModelDto = z.infer<typeof M.PrinterModelDto>;

export type PrinterSidebarSnapshotDto = z.infer<typeof P.SidebarSnapshotDto> & {
  /** Not in the v1 contract; used when the Worker provides it. */
  unreadDocumentCount?: number;
  /** Sent once when the printer was deleted (docs/decisions.md). */
  deleted?: boolean;
};

export type BridgeDto = z.infer<typeof B.BridgeDto>;
export type CreatedBridgeDto = z.infer<typeof B.CreatedBridgeDto>;
