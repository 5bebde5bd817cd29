/**
 * Character sets selected by the I command (`Ip1,p2,p3`: p1 = 7 or 8 bit, p2 = code page).
 * Bytes 0x00-0x7F are ASCII in every supported page; the tables give 0x80-0xFF.
 */

const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const CP850_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';
const CP1252_80_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

export interface CodePage {
  id: string;
  name: string;
  decode(bytes: string): string;
}

function tableDecoder(high: string): (s: string) => string {
  return (s) => {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      out += c < 0x80 ? s[i] : high[c - 0x80] ?? '?';
    }
    return out;
  };
}

const decode437 = tableDecoder(CP437_HIGH);
const decode850 = tableDecoder(CP850_HIGH);
const decode1252 = (s: string): string => {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x80 && c <= 0x9f ? CP1252_80_9F[c - 0x80] : s[i];
  }
  return out;
};

/** p2 of the I command. Pages without a table fall back to DOS 437 (reported by the caller). */
const PAGES: Record<string, { name: string; decode: (s: string) => string; exact: boolean }> = {
  '0': { name: 'DOS 437 English - US', decode: decode437, exact: true },
  '1': { name: 'DOS 850 Latin 1', decode: decode850, exact: true },
  '2': { name: 'DOS 852 Latin 2', decode: decode437, exact: false },
  '3': { name: 'DOS 860 Portuguese', decode: decode437, exact: false },
  '4': { name: 'DOS 863 French Canadian', decode: decode437, exact: false },
  '5': { name: 'DOS 865 Nordic', decode: decode437, exact: false },
  '6': { name: 'DOS 857 Turkish', decode: decode437, exact: false },
  '7': { name: 'DOS 861 Icelandic', decode: decode437, exact: false },
  '8': { name: 'DOS 862 Hebrew', decode: decode437, exact: false },
  '9': { name: 'DOS 855 Cyrillic', decode: decode437, exact: false },
  '10': { name: 'DOS 866 Cyrillic CIS 1', decode: decode437, exact: false },
  '11': { name: 'DOS 737 Greek', decode: decode437, exact: false },
  '12': { name: 'DOS 851 Greek 1', decode: decode437, exact: false },
  '13': { name: 'DOS 869 Greek 2', decode: decode437, exact: false },
  A: { name: 'Windows 1252 Latin 1', decode: decode1252, exact: true },
  B: { name: 'Windows 1250 Latin 2', decode: decode1252, exact: false },
  C: { name: 'Windows 1251 Cyrillic', decode: decode1252, exact: false },
  D: { name: 'Windows 1253 Greek', decode: decode1252, exact: false },
  E: { name: 'Windows 1254 Turkish', decode: decode1252, exact: false },
  F: { name: 'Windows 1255 Hebrew', decode: decode1252, exact: false },
};

export function lookupCodePage(p2: string): { id: string; name: string; decode: (s: string) => string; exact: boolean } | null {
  const key = p2.trim().toUpperCase().replace(/^0+(?=\d)/, '');
  const page = PAGES[key];
  return page ? { id: key, ...page } : null;
}

export const DEFAULT_CODE_PAGE = lookupCodePage('0')!;
