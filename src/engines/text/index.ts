/**
 * Printer text: bytes → the characters a model prints, and how many cells they take.
 * Pure TypeScript (codepage-encoder and iconv-lite tables), for every engine.
 */
export { decodeSingleByte, describeTable, isSupportedTable, singleByteTable, supportedTables, UNDEFINED_CHARACTER } from './single-byte.ts';
export { decodeEucJp, decodeMultiByte, multiByteLength, NEEDS_SECOND_BYTE, type DecodableMultiByteEncoding } from './multi-byte.ts';
export { cellCount, isCombiningMark, splitCells } from './cells.ts';
