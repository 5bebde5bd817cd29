/**
 * The protocol names a printer model can speak. Helper 13a's protocol registry
 * (`src/engines/registry.ts`, exporting `Protocol`) is the one source of truth once merged:
 * point `ModelProtocol` at it then (`export type { Protocol as ModelProtocol } from '../registry.ts'`)
 * and drop this list. Kept here only so the model registry compiles on its own.
 */
export type ModelProtocol = 'EscPos' | 'Epl' | 'Zpl' | 'StarPrnt' | 'StarLine';
