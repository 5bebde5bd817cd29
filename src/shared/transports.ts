/**
 * How a document arrived (extensions.md "Transports"): `RenderedDocumentDto.transport`, the
 * session messages between bridge and Worker, and the web UI's label all take this list.
 */
export const TRANSPORTS = ['Tcp', 'Import', 'EposPrint', 'WebPrnt', 'ZebraHttp', 'Lpd', 'CloudPrnt', 'ServerDirectPrint'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** The transports a bridge receives over HTTP or LPD and hands to the Worker as one request. */
export const BRIDGE_REQUEST_TRANSPORTS = ['EposPrint', 'WebPrnt', 'ZebraHttp', 'Lpd'] as const satisfies readonly Transport[];
export type BridgeRequestTransport = (typeof BRIDGE_REQUEST_TRANSPORTS)[number];

export function isBridgeRequestTransport(v: unknown): v is BridgeRequestTransport {
  return (BRIDGE_REQUEST_TRANSPORTS as readonly unknown[]).includes(v);
}
