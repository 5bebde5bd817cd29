/**
 * The protocol names a printer model can speak. Helper 13a's protocol registry
 * (`src/engines/registry.ts`, exporting `Protocol`) is the one source of truth once merged:
 * point `MODEL_PROTOCOLS` / `ModelProtocol` at it then and drop this list. Kept here only so
 * the model registry compiles on its own.
 */
export const MODEL_PROTOCOLS = ['EscPos', 'Epl', 'Zpl', 'StarPrnt', 'StarLine'] as const;
export type ModelProtocol = (typeof MODEL_PROTOCOLS)[number];
