import pkg from '../package.json' with { type: 'json' };

/** Sent as the User-Agent of every WebSocket to the Worker; listed as the bridge's `version`. */
export const BRIDGE_VERSION: string = pkg.version;
export const BRIDGE_USER_AGENT = `slipstream-tcp-bridge/${BRIDGE_VERSION}`;
