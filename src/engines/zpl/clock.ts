/**
 * ^FC clock fields: field data with the real-time clock's codes after the clock indicator
 * (`%` unless ^FC names another), replaced when the label prints (ZPL II guide, Real Time
 * Clock: %a %A weekday, %b %B month, %d day, %H %I hour, %j day of year, %m month, %M minute,
 * %p AM/PM, %S second, %y %Y year, %U %W week number, %w weekday number).
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const two = (n: number): string => String(n).padStart(2, '0');

function dayOfYear(d: Date): number {
  return Math.floor((Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) - Date.UTC(d.getFullYear(), 0, 1)) / 86_400_000) + 1;
}

function week(d: Date, firstDay: 0 | 1): number {
  const jan1 = new Date(d.getFullYear(), 0, 1).getDay();
  const offset = (7 + jan1 - firstDay) % 7;
  return Math.floor((dayOfYear(d) - 1 + offset) / 7);
}

function code(c: string, d: Date): string | null {
  switch (c) {
    case 'a': return DAYS[d.getDay()].slice(0, 3);
    case 'A': return DAYS[d.getDay()];
    case 'b': return MONTHS[d.getMonth()].slice(0, 3);
    case 'B': return MONTHS[d.getMonth()];
    case 'd': return two(d.getDate());
    case 'H': return two(d.getHours());
    case 'I': return two(((d.getHours() + 11) % 12) + 1);
    case 'j': return String(dayOfYear(d)).padStart(3, '0');
    case 'm': return two(d.getMonth() + 1);
    case 'M': return two(d.getMinutes());
    case 'p': return d.getHours() < 12 ? 'AM' : 'PM';
    case 'S': return two(d.getSeconds());
    case 'y': return two(d.getFullYear() % 100);
    case 'Y': return String(d.getFullYear());
    case 'U': return two(week(d, 0));
    case 'W': return two(week(d, 1));
    case 'w': return String(d.getDay());
    default: return null;
  }
}

/** The field text with every `<indicator><code>` replaced by the clock's value. */
export function expandClock(text: string, indicator: string, now: Date): string {
  if (!indicator || !text.includes(indicator)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === indicator && i + 1 < text.length) {
      const v = code(text[i + 1], now);
      if (v !== null) {
        out += v;
        i++;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}
