/**
 * ^FH: field data with hexadecimal escapes. The escape character (default `_`) followed by
 * two hex digits stands for that byte, so data can hold ^, ~ and control characters (GS and
 * RS in a MaxiCode or GS1 message). An escape without two hex digits is kept as written.
 */
export function decodeHexEscapes(data: string, escape: string): string {
  if (!escape || !data.includes(escape)) return data;
  let out = '';
  for (let i = 0; i < data.length; i++) {
    const ch = data[i];
    if (ch === escape && i + 2 < data.length + 0 && /^[0-9A-Fa-f]{2}$/.test(data.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(data.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += ch;
  }
  return out;
}
