import { parseArgs } from 'node:util';

export const USAGE = `Usage: npm run projector -- <command> [options]

Commands:
  run                     keep the read models up to date (announcing changes on REDIS_URL;
                          with EVENT_BUS=kafka, relay the log to Kafka and read it from there)
  status                  each projection's position and lag (the default command)
  rebuild <name>          replay the log into fresh tables and swap them in
  audit [options]         list events from the log, oldest first
      --stream ID         only this stream's events (e.g. product-<id>)
      --type T            only events of this type (e.g. ProductReported)
      --from N            only events after position N (default 0)
      --limit N           at most N events (default 100)
  verify [name]           rebuild each projection (or the named one) into scratch tables and compare
                          them row by row with the live tables; exit 0 when all are equal, 1 when not
  -h, --help              this text

Uses DATABASE_URL; without it, the embedded PostgreSQL under DATA_DIR (./data): the one a running
\`npm start\` keeps there, else one started for the command.
Exit codes: 0 done (verify: all equal), 1 failed (verify: something differs), 2 bad arguments.`;

export type Command =
  | { command: 'help' }
  | { command: 'run' }
  | { command: 'status' }
  | { command: 'rebuild'; name: string }
  | { command: 'audit'; stream: string | undefined; type: string | undefined; from: number; limit: number }
  | { command: 'verify'; name: string | undefined };

/** A command line the tool refuses: `message` is one line naming what is wrong; exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(problem: string) {
    super(`projector: ${problem}; see --help`);
  }
}

const COMMANDS = ['run', 'status', 'rebuild', 'audit', 'verify'] as const;
const AUDIT_OPTIONS = ['stream', 'type', 'from', 'limit'] as const;
export const MAX_AUDIT_LIMIT = 100_000;

function wholeNumber(option: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${option} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

/** node:util's parse errors, as one line naming the option. */
function parseError(err: unknown): UsageError {
  const e = err as { code?: string; message?: string };
  const named = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown option ${named ?? ''}`.trim());
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return new UsageError(`${named ?? 'an option'} needs a value`);
  return new UsageError((e.message ?? String(err)).split('. ')[0]!);
}

/**
 * The operator tool's command line (`process.argv.slice(2)`), strictly: an unknown command or
 * option, a missing or bad value, an option the command does not take, or a stray argument
 * throws a UsageError. `--help`/`-h` anywhere wins over everything else.
 */
export function parseCommandLine(argv: string[]): Command {
  const beforeDashes = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (beforeDashes.some((a) => a === '--help' || a === '-h')) return { command: 'help' };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw parseError(err);
  }
  const [command = 'status', ...positionals] = parsed.positionals;
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`unknown command "${command}"`);
  const given = AUDIT_OPTIONS.filter((o) => parsed.values[o] !== undefined);
  if (command !== 'audit' && given.length > 0) throw new UsageError(`--${given[0]} is an option of audit, not of ${command}`);
  const takes = command === 'rebuild' || command === 'verify' ? 1 : 0;
  if (command === 'rebuild' && positionals.length === 0) throw new UsageError('rebuild needs the name of a projection');
  if (positionals.length > takes) throw new UsageError(`unexpected argument "${positionals[takes]}" after ${command}`);
  switch (command) {
    case 'run':
    case 'status':
      return { command };
    case 'rebuild':
      return { command, name: positionals[0]! };
    case 'verify':
      return { command, name: positionals[0] };
    default: {
      const { stream, type, from, limit } = parsed.values;
      if (stream === '') throw new UsageError('--stream needs a stream id');
      if (type === '') throw new UsageError('--type needs an event type');
      return {
        command: 'audit',
        stream,
        type,
        from: from === undefined ? 0 : wholeNumber('from', from, 0, Number.MAX_SAFE_INTEGER),
        limit: limit === undefined ? 100 : wholeNumber('limit', limit, 1, MAX_AUDIT_LIMIT),
      };
    }
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      stream: { type: 'string' },
      type: { type: 'string' },
      from: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The named projection must be one this tool hosts; a UsageError otherwise. */
export function checkProjectionName(name: string | undefined, names: readonly string[]): void {
  if (name !== undefined && !names.includes(name)) throw new UsageError(`no projection named "${name}" (there are ${names.join(', ')})`);
}
