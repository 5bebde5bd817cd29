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

/** How the web UI names each transport on a document. */
export const TRANSPORT_LABELS: Readonly<Record<Transport, string>> = {
  Tcp: 'raw TCP',
  Import: 'imported',
  EposPrint: 'Epson ePOS-Print',
  WebPrnt: 'Star WebPRNT',
  ZebraHttp: 'Zebra HTTP /pstprnt',
  Lpd: 'LPD',
  CloudPrnt: 'Star CloudPRNT',
  ServerDirectPrint: 'Epson Server Direct Print',
};

/**
 * The addresses a POS is pointed at for a printer of `protocol` reached at host:port
 * (extensions.md); `lpdPort` is the LPD port its bridge listens on (null: none, no LPD address).
 */
export function printerEndpoints(protocol: string, host: string, port: number, lpdPort: number | null): { label: string; url: string }[] {
  const http = (path: string, name: string) => [
    { label: `${name} (HTTP)`, url: `http://${host}:${port}${path}` },
    { label: `${name} (HTTPS)`, url: `https://${host}:${port}${path}` },
  ];
  const byProtocol: Record<string, { label: string; url: string }[]> = {
    EscPos: http('/cgi-bin/epos/service.cgi?devid=local_printer&timeout=10000', 'Epson ePOS-Print'),
    StarPrnt: http('/StarWebPRNT/SendMessage', 'Star WebPRNT'),
    StarLine: http('/StarWebPRNT/SendMessage', 'Star WebPRNT'),
    Zpl: http('/pstprnt', 'Zebra /pstprnt'),
    Epl: http('/pstprnt', 'Zebra /pstprnt'),
  };
  return [
    { label: 'Raw TCP (port 9100 style)', url: `${host}:${port}` },
    ...(byProtocol[protocol] ?? []),
    ...(lpdPort === null ? [] : [{ label: 'LPD queue', url: `lpd://${host}:${lpdPort}/${port}` }]),
  ];
}
