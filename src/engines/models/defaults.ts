import type { ModelProtocol } from './protocol.ts';

/**
 * The model a printer gets when its settings name none (docs/contract/extensions.md, "Defaults"). In a
 * module of its own, without the model data, so the web UI can import it cheaply.
 */
export const DEFAULT_MODEL_IDS: Readonly<Record<ModelProtocol, string>> = {
  EscPos: 'epson-tm-t88vi',
  StarPrnt: 'star-tsp100iv',
  StarLine: 'star-tsp650ii',
  Epl: 'zebra-gk420d',
  Zpl: 'zebra-zd421-203',
};
