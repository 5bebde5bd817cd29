/**
 * Shape of the data read out of `@point-of-sale/receipt-printer-encoder` (see
 * scripts/printer-models-source.ts). Kept beside the generated module so the engines never
 * import from scripts/.
 */
export interface EncoderFont {
  /** `WxH` in dots, as the package writes it. */
  size: string;
  columns: number;
}

export interface EncoderPrinterDefinition {
  vendor: string;
  model: string;
  media: { dpi?: number; width?: number };
  capabilities: {
    language: 'esc-pos' | 'star-prnt' | 'star-line';
    codepages: string;
    newline?: string;
    fonts: Record<string, EncoderFont>;
  };
}

export interface EncoderModelData {
  version: string;
  printerDefinitions: Record<string, EncoderPrinterDefinition>;
  /** language → mapping name → table name by number (null: a number the printer lacks). */
  codepageMappings: Record<string, Record<string, (string | null)[]>>;
}
