/** Structured logging: one JSON object per line on stdout (errors included). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function isLogLevel(value: string): value is LogLevel {
  return value in ORDER;
}

/**
 * Writes to stdout until it fails: a closed pipe (EPIPE, e.g. the parent that read our output
 * went away) turns logging off instead of raising errors that would be logged again.
 */
export function stdoutWriter(): (line: string) => void {
  let broken = false;
  process.stdout.on('error', () => {
    broken = true;
  });
  return (line) => {
    if (broken || process.stdout.destroyed) return;
    try {
      process.stdout.write(line);
    } catch {
      broken = true;
    }
  };
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = stdoutWriter()): Logger {
  const min = ORDER[level];
  const emit = (lvl: LogLevel, event: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    let line: string;
    try {
      line = JSON.stringify({ ts: new Date().toISOString(), level: lvl, event, ...fields });
    } catch {
      line = JSON.stringify({ ts: new Date().toISOString(), level: lvl, event, note: 'unserialisable fields' });
    }
    write(line + '\n');
  };
  return {
    debug: (e, f) => emit('debug', e, f),
    info: (e, f) => emit('info', e, f),
    warn: (e, f) => emit('warn', e, f),
    error: (e, f) => emit('error', e, f),
  };
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.startsWith(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
