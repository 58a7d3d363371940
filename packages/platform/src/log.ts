import { logLevelFromEnv } from './config';
import { describeError } from './errors';

/** Structured one-line logs; quiet under tests unless LOG_LEVEL says otherwise. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const threshold = (): number => ORDER[logLevelFromEnv() as Level] ?? 20;

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export function createLogger(component: string): Logger {
  const write = (level: Level) => (msg: string, extra?: unknown) => {
    if (ORDER[level] < threshold()) return;
    // An Error (or anything thrown, even undefined) is logged as its real cause, never as "undefined".
    const detail =
      extra instanceof Error
        ? { error: describeError(extra) }
        : extra && typeof extra === 'object' && 'error' in extra && typeof extra.error !== 'string'
          ? { ...extra, error: describeError(extra.error) }
          : extra;
    const line = JSON.stringify({
      t: new Date().toISOString(),
      level,
      component,
      msg,
      ...(detail && typeof detail === 'object' ? detail : {}),
    });
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
