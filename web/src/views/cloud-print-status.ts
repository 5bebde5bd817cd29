/** The printer page's line about its cloud print server (settings.cloudPrint): where it polls, when it last did, and what went wrong. */
import type { PrinterResponseDto } from '../types.ts';

const KIND_LABELS = { StarCloudPrnt: 'Star CloudPRNT', EpsonServerDirectPrint: 'Epson Server Direct Print' } as const;

export function cloudPrintStatusText(p: PrinterResponseDto): { text: string; isError: boolean } | null {
  const cloud = p.settings.cloudPrint;
  if (!cloud) return null;
  const rt = p.runtimeStatus;
  const polled = rt?.cloudPrintLastPollAt ? `last poll ${new Date(rt.cloudPrintLastPollAt).toLocaleTimeString()}` : 'not polled yet';
  const error = rt?.cloudPrintLastError;
  return {
    text: `${KIND_LABELS[cloud.kind]} · polls ${cloud.url} every ${cloud.intervalSeconds} s · ${polled}${error ? ` · ${error}` : ''}`,
    isError: !!error,
  };
}
