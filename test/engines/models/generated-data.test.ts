import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readEncoderModelData, renderEncoderModelModule } from '../../../scripts/printer-models-source.ts';

describe('generated receipt-printer-encoder model data', () => {
  it('matches the installed @point-of-sale/receipt-printer-encoder (regenerate with scripts/generate-printer-models.ts)', () => {
    const checkedIn = readFileSync(new URL('../../../src/engines/models/generated/receipt-printer-encoder-data.ts', import.meta.url), 'utf8');
    expect(checkedIn).toBe(renderEncoderModelModule(readEncoderModelData()));
  });
});
