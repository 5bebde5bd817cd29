import { z } from '@hono/zod-openapi';
import { DateTime, Int32, NullableDateTime, Uuid } from './common.ts';
import { Protocol, settingsDtoShape, settingsRequestShape } from './printer-settings.ts';

export { Protocol, RequestHeightInDots, RequestWidthInDots } from './printer-settings.ts';
export const TargetState = z.enum(['Started', 'Stopped']);
export const RuntimeState = z.enum(['Starting', 'Started', 'Stopped', 'Error']);
export const DrawerState = z.enum(['Closed', 'OpenedManually', 'OpenedByCommand']);
export const SettableDrawerState = z.enum(['Closed', 'OpenedManually']);

export const PrinterDto = z
  .object({
    id: Uuid,
    displayName: z.string(),
    ownerWorkspaceId: Uuid,
    ownerWorkspaceName: z.string().optional(),
    isPinned: z.boolean(),
    lastViewedDocumentId: Uuid.optional(),
    lastDocumentReceivedAt: NullableDateTime,
    lastApiReadAt: NullableDateTime,
    lastWebReadAt: NullableDateTime,
  })
  .openapi('PrinterDto');

/** The settings (schemas/printer-settings.ts) and where POS terminals reach the port. */
export const PrinterSettingsDto = z
  .object({
    ...settingsDtoShape(),
    publicHost: z.string().openapi({ description: 'Where POS terminals reach the port: the printer’s bridge’s publicHost, else the deployment’s PUBLIC_HOST' }),
  })
  .openapi('PrinterSettingsDto');

export const OperationalFlagsDto = z
  .object({
    printerId: Uuid,
    targetState: TargetState,
    updatedAt: DateTime,
    isCoverOpen: z.boolean(),
    isPaperOut: z.boolean(),
    isOffline: z.boolean(),
    hasError: z.boolean(),
    isPaperNearEnd: z.boolean(),
  })
  .openapi('PrinterOperationalFlagsDto');

export const RuntimeStatusDto = z
  .object({
    printerId: Uuid,
    state: RuntimeState,
    updatedAt: DateTime,
    bufferedBytes: Int32.optional(),
    bufferedBytesDeltaBps: Int32.optional(),
    drawer1State: DrawerState.optional(),
    drawer2State: DrawerState.optional(),
    cloudPrintLastPollAt: DateTime.optional().openapi({ description: 'When the printer last polled its cloud print server (settings.cloudPrint); omitted until it has' }),
    cloudPrintLastError: z.string().optional().openapi({ description: 'What went wrong in the last poll; omitted when it went well' }),
  })
  .openapi('PrinterRuntimeStatusDto');

export const PrinterResponseDto = z
  .object({
    printer: PrinterDto,
    settings: PrinterSettingsDto,
    operationalFlags: OperationalFlagsDto.optional(),
    runtimeStatus: RuntimeStatusDto.optional(),
  })
  .openapi('PrinterResponseDto');

export const SidebarSnapshotDto = z
  .object({ printer: PrinterDto, runtimeStatus: RuntimeStatusDto.optional() })
  .openapi('PrinterSidebarSnapshotDto');

export const PrinterStatusUpdateDto = z
  .object({
    printerId: Uuid,
    updatedAt: DateTime,
    runtime: z
      .object({
        state: RuntimeState,
        updatedAt: DateTime,
        bufferedBytes: Int32.nullable().optional(),
        bufferedBytesDeltaBps: Int32.nullable().optional(),
        drawer1State: DrawerState.nullable().optional(),
        drawer2State: DrawerState.nullable().optional(),
        cloudPrintLastPollAt: DateTime.optional(),
        cloudPrintLastError: z.string().optional(),
      })
      .optional(),
    operationalFlags: OperationalFlagsDto.partial().extend({ printerId: Uuid, updatedAt: DateTime }).optional(),
    settings: PrinterSettingsDto.optional(),
    printer: PrinterDto.optional(),
  })
  .openapi('PrinterStatusUpdateDto');

const PrinterRequestSettings = z
  .object(settingsRequestShape())
  .refine((s) => !s.emulateBufferCapacity || (s.bufferDrainRate != null && s.bufferMaxCapacity != null), {
    message: 'bufferDrainRate and bufferMaxCapacity are required when emulateBufferCapacity is true',
    path: ['emulateBufferCapacity'],
  });

export const PrinterRequest = z
  .object({
    printer: z.object({ id: Uuid, displayName: z.string().trim().min(1).max(200) }),
    settings: PrinterRequestSettings,
  })
  .openapi('CreatePrinterRequestDto');

export const PinRequest = z.object({ isPinned: z.boolean() }).openapi('PinPrinterRequestDto');

export const FlagsRequest = z
  .object({
    isCoverOpen: z.boolean().optional(),
    isPaperOut: z.boolean().optional(),
    isOffline: z.boolean().optional(),
    hasError: z.boolean().optional(),
    isPaperNearEnd: z.boolean().optional(),
    targetState: TargetState.optional(),
  })
  .openapi('UpdatePrinterOperationalFlagsRequestDto');

export const DrawersRequest = z
  .object({ drawer1State: SettableDrawerState.optional(), drawer2State: SettableDrawerState.optional() })
  .openapi('UpdatePrinterDrawerStateRequestDto');

export const NvImageDto = z
  .object({ slot: Int32, widthInDots: Int32, heightInDots: Int32, mediaUrl: z.string() })
  .openapi('PrinterNvImageResponseDto');

export const NvSlotParams = z.object({
  id: Uuid.openapi({ param: { name: 'id', in: 'path' } }),
  slot: z.coerce.number().int().min(1).max(255).openapi({ param: { name: 'slot', in: 'path' } }),
});
