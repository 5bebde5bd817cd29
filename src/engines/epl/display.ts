/** How command text shows in debug elements and messages: control bytes as <XX>, long text cut. */
const MAX_DISPLAY = 160;

export function display(text: string): string {
  let s = '';
  for (let i = 0; i < text.length && s.length < MAX_DISPLAY; i++) {
    const c = text.charCodeAt(i);
    s += c < 0x20 || c === 0x7f ? `<${c.toString(16).toUpperCase().padStart(2, '0')}>` : text[i];
  }
  if (s.length >= MAX_DISPLAY) s += '…';
  return s;
}
