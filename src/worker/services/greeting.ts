/**
 * The greeting for the start page. `general` is always present; the day-part variant
 * matching the current UTC hour is added so the page can pick the friendliest one.
 */
export function greetingFor(now: Date): { morning?: string; afternoon?: string; evening?: string; general: string } {
  const hour = now.getUTCHours();
  const general = 'Welcome to Slipstream: point your POS at a printer and watch it print.';
  if (hour >= 5 && hour < 12) return { morning: 'Good morning! The paper rolls are fresh.', general };
  if (hour >= 12 && hour < 18) return { afternoon: 'Good afternoon! Busy printing today?', general };
  return { evening: 'Good evening! Closing the till? Print the Z report here.', general };
}
