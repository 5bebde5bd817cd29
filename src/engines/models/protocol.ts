/**
 * The protocol names a printer model can speak: the protocol list itself
 * (src/engines/protocols.ts), under the names the model registry uses.
 */
export { PROTOCOL_NAMES as MODEL_PROTOCOLS, type Protocol as ModelProtocol } from '../protocols.ts';
