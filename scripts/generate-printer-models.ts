/** Writes src/engines/models/generated/receipt-printer-encoder-data.ts; see printer-models-source.ts. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readEncoderModelData, renderEncoderModelModule } from './printer-models-source.ts';

const target = fileURLToPath(new URL('../src/engines/models/generated/receipt-printer-encoder-data.ts', import.meta.url));
writeFileSync(target, renderEncoderModelModule(readEncoderModelData()));
console.log(`wrote ${target}`);
