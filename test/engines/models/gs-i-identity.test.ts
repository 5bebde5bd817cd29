/**
 * The model's identity as an ESC/POS unit reports it (GS I n, Epson's "transmit printer ID"):
 * n = 65 firmware, 66 maker, 67 model name, each answered as 0x5F, the ASCII text, NUL.
 * Needs the engines to read the model (test/engines/corpus/wiring.ts): until then the engine
 * answers with one fixed Epson identity and these cases are expected to fail.
 */
import { describe, expect } from 'vitest';
import { createProtocolSession } from '../../../src/engines/index.ts';
import { getModel, modelContext } from '../../../src/engines/models/index.ts';
import { testPrinterContext } from '../../support/printer-context.ts';
import { itWhenModelsWired } from '../corpus/wiring.ts';

function gsI(modelId: string, n: number): string {
  const model = getModel(modelId)!;
  const ctx = { ...testPrinterContext({ widthInDots: model.defaultWidthInDots }), ...modelContext(model) };
  const session = createProtocolSession('EscPos', () => ctx);
  const { replies } = session.push(Uint8Array.of(0x1d, 0x49, n));
  session.finish();
  return replies.map((r) => String.fromCharCode(...r)).join('');
}

describe('GS I identity of the printer model', () => {
  for (const id of ['epson-tm-t88vi', 'epson-tm-t20iii', 'epson-tm-m30iii', 'citizen-ct-s310ii', 'bixolon-srp350iii']) {
    itWhenModelsWired(`${id}: maker, model name and firmware as the model reports them`, () => {
      const { identity } = getModel(id)!;
      expect(gsI(id, 66)).toBe(`_${identity.maker}\0`);
      expect(gsI(id, 67)).toBe(`_${identity.modelName}\0`);
      expect(gsI(id, 65)).toBe(`_${identity.firmware}\0`);
    });
  }
});
