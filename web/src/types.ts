/** DTOs of the public HTTP API (../shared/spec/http-interface.md), as the web UI sees them. */
import type {
  BoxElement, DebugElement, ElementSource, LineElement, Rotation, TextElement,
} from '../../src/engines/canvas/model.ts';

export type { Rotation };

export interface MediaRef {
  contentType: string;
  size: number;
  url: string;
  storageKey?: string;
}

export interface ApiImageElement extends ElementSource {
  type: 'image';
  media: MediaRef;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: Rotation;
}

export type ApiCanvasElement = TextElement | ApiImageElement | LineElement | BoxElement | DebugElement;

export interface CanvasDto {
  widthInDots: number;
  heightInDots?: number | null;
  items: ApiCanvasElement[];
}

export interface RenderedDocumentDto {
  id: string;
  printJobId: string;
  printerId: string;
  timestamp: string;
  protocol: string;
  canvases: CanvasDto[];
  clientAddress?: string;
  bytesReceived: number;
  bytesSent: number;
  errorMessages?: string[];
}

export interface PagedResult<T> {
  items?: T[];
  hasMore: boolean;
  nextBeforeId?: string | null;
  nextBeforeCreatedAt?: string | null;
}

export interface WorkspaceDto {
  id: string;
  name: string;
  createdAt: string;
  role: string;
  documentRetentionDays: number;
  tcpWhitelistEnabled: boolean;
  tcpWhitelistEntries: string;
  lastApiReadAt: string | null;
  lastWebReadAt: string | null;
  lightColorScheme?: string | null;
  darkColorScheme?: string | null;
}

export interface WorkspaceResponseDto { id: string; name: string; token: string }

export interface LoginResponseDto {
  accessToken: string;
  tokenType: string;
  expiresInSeconds: number;
  workspace: WorkspaceDto;
}

export interface WorkspaceSummaryDto {
  totalPrinters: number;
  totalDocuments: number;
  documentsLast24h: number;
  lastDocumentAt?: string | null;
  createdAt: string;
}

export interface AdminWorkspaceStatisticsRowDto {
  workspaceId: string;
  workspaceName: string;
  role: string;
  printerCount: number;
  documentCount: number;
  mediaCount: number;
  mediaBytes: number;
  documentsLast24h: number;
  lastDocumentAt?: string | null;
  documentRetentionDays: number;
  lastApiReadAt?: string | null;
  lastWebReadAt?: string | null;
}

export interface AdminWorkspaceStatisticsDto {
  totalWorkspaces: number;
  activeWorkspacesLast24h: number;
  activeWorkspacesLast7d: number;
  totalPrinters: number;
  totalDocuments: number;
  totalMedia: number;
  totalMediaBytes: number;
  documentsLast24h: number;
  documentsLast7d: number;
  mediaLast24h: number;
  mediaLast7d: number;
  lastDocumentAt?: string | null;
  workspaces?: AdminWorkspaceStatisticsRowDto[] | null;
}

export interface GreetingResponseDto { morning?: string; afternoon?: string; evening?: string; general?: string }
export interface CleanupSummaryDto { expiredDocuments: number; retentionMediaFiles: number }
export interface CleanupResultDto { deletedDocuments: number; deletedMedia: number }
export interface TcpConnectionEntryDto { clientIp: string; connectedAt: string; allowed: boolean; connectionType: string }

export type Protocol = 'EscPos' | 'Epl';
export type RuntimeState = 'Starting' | 'Started' | 'Stopped' | 'Error';
export type DrawerState = 'Closed' | 'OpenedManually' | 'OpenedByCommand';

export interface PrinterDto {
  id: string;
  displayName: string;
  ownerWorkspaceId: string;
  ownerWorkspaceName?: string;
  isPinned: boolean;
  lastViewedDocumentId?: string | null;
  lastDocumentReceivedAt: string | null;
  lastApiReadAt: string | null;
  lastWebReadAt: string | null;
}

export interface PrinterSettingsDto {
  protocol: Protocol;
  widthInDots: number;
  heightInDots?: number | null;
  tcpListenPort: number;
  emulateBufferCapacity: boolean;
  bufferDrainRate?: number | null;
  bufferMaxCapacity?: number | null;
  publicHost: string;
}

export interface OperationalFlags {
  isCoverOpen: boolean;
  isPaperOut: boolean;
  isOffline: boolean;
  hasError: boolean;
  isPaperNearEnd: boolean;
}

export interface PrinterOperationalFlagsDto extends OperationalFlags {
  printerId: string;
  targetState: 'Started' | 'Stopped';
  updatedAt: string;
}

export interface PrinterRuntimeStatusDto {
  printerId: string;
  state: RuntimeState;
  updatedAt: string;
  bufferedBytes?: number | null;
  bufferedBytesDeltaBps?: number | null;
  drawer1State?: DrawerState | null;
  drawer2State?: DrawerState | null;
}

export interface PrinterResponseDto {
  printer: PrinterDto;
  settings: PrinterSettingsDto;
  operationalFlags?: PrinterOperationalFlagsDto;
  runtimeStatus?: PrinterRuntimeStatusDto;
}

export interface PrinterSidebarSnapshotDto {
  printer: PrinterDto;
  runtimeStatus?: Partial<PrinterRuntimeStatusDto>;
  /** Not in the v1 contract; used when the Worker provides it. */
  unreadDocumentCount?: number;
}

export interface PrinterStatusUpdateDto {
  printerId: string;
  updatedAt: string;
  runtime?: Partial<PrinterRuntimeStatusDto>;
  operationalFlags?: Partial<PrinterOperationalFlagsDto>;
  settings?: PrinterSettingsDto;
  printer?: PrinterDto;
}

export interface PrinterNvImageResponseDto { slot: number; widthInDots: number; heightInDots: number; mediaUrl: string }

export interface PrinterWriteRequest {
  printer: { id: string; displayName: string };
  settings: {
    protocol: Protocol;
    widthInDots: number;
    heightInDots: number | null;
    emulateBufferCapacity: boolean;
    bufferDrainRate: number | null;
    bufferMaxCapacity: number | null;
  };
}

export interface CanvasDocumentPage { result: PagedResult<RenderedDocumentDto> }
