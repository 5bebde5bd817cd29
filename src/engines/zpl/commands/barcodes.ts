/** Bar code commands: ^BY and one entry per symbology of barcodes.ts. */
import { BARCODES } from '../barcodes.ts';
import { checked, MAX_DOTS, type ZplCommand } from './types.ts';

export const BARCODE_COMMANDS: ZplCommand[] = [
  {
    ids: ['^BY'],
    summary: 'Bar Code Field Default',
    run: (m, p) => {
      const by = m.settings.by;
      by.moduleWidth = p.int(0, 'module width', by.moduleWidth, 1, 10);
      by.ratio = p.num(1, 'wide to narrow ratio', by.ratio, 2, 3);
      by.height = p.int(2, 'bar code height', by.height, 1, MAX_DOTS);
      return checked(p, `Bar code defaults: module ${by.moduleWidth}, ratio ${by.ratio}, height ${by.height}`);
    },
  },
  ...Object.entries(BARCODES).map(([code, b]): ZplCommand => ({
    ids: [`^${code}`],
    summary: `${b.name} Bar Code`,
    run: (m, p) => {
      const spec = b.build(p, { by: m.settings.by, fieldOrientation: m.settings.fieldOrientation, dpi: m.dpi });
      m.field.barcode = spec;
      return checked(p, `${b.name}, orientation ${spec.orientation}${spec.kind === 'linear' ? `, height ${spec.height}` : `, module ${spec.moduleSize}`}`);
    },
  })),
];
