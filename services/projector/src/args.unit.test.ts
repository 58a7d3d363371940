import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError, checkProjectionName, parseCommandLine } from './args';

const refused = (argv: string[]): UsageError => {
  try {
    parseCommandLine(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
};

describe('the projector tool command line', () => {
  it('reads every command and both spellings of an option', () => {
    expect(parseCommandLine([])).toEqual({ command: 'status' });
    expect(parseCommandLine(['run'])).toEqual({ command: 'run' });
    expect(parseCommandLine(['rebuild', 'catalog'])).toEqual({ command: 'rebuild', name: 'catalog' });
    expect(parseCommandLine(['verify'])).toEqual({ command: 'verify', name: undefined });
    expect(parseCommandLine(['verify', 'orders'])).toEqual({ command: 'verify', name: 'orders' });
    expect(parseCommandLine(['audit'])).toEqual({ command: 'audit', stream: undefined, type: undefined, from: 0, limit: 100 });
    expect(parseCommandLine(['audit', '--limit=3'])).toMatchObject({ limit: 3 });
    expect(parseCommandLine(['audit', '--limit', '3'])).toMatchObject({ limit: 3 });
    expect(parseCommandLine(['audit', '--stream', 'product-1', '--type=ProductListed', '--from', '7'])).toEqual({
      command: 'audit',
      stream: 'product-1',
      type: 'ProductListed',
      from: 7,
      limit: 100,
    });
  });

  it('answers --help or -h wherever it stands, even beside a mistake', () => {
    for (const argv of [['--help'], ['-h'], ['audit', '--help'], ['audit', '--limit', 'abc', '-h'], ['nonsense', '--help']])
      expect(parseCommandLine(argv)).toEqual({ command: 'help' });
  });

  it.each([
    [['audit', '--limit', 'abc'], '--limit must be a whole number from 1 to 100000, not "abc"'],
    [['audit', '--limit=abc'], '--limit must be a whole number from 1 to 100000, not "abc"'],
    [['audit', '--limit', '0'], '--limit must be a whole number from 1 to 100000, not "0"'],
    [['audit', '--limit=-3'], '--limit must be a whole number from 1 to 100000, not "-3"'],
    [['audit', '--limit', '1.5'], '--limit must be a whole number from 1 to 100000, not "1.5"'],
    [['audit', '--limit', '-3'], '--limit'],
    [['audit', '--from', 'x'], '--from must be a whole number'],
    [['audit', '--limit'], '--limit needs a value'],
    [['audit', '--stream='], '--stream needs a stream id'],
    [['audit', '--bogus'], 'unknown option --bogus'],
    [['audit', '-x'], 'unknown option -x'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['rebuild'], 'rebuild needs the name of a projection'],
    [['status', '--limit', '3'], '--limit is an option of audit, not of status'],
    [['status', 'extra'], 'unexpected argument "extra" after status'],
    [['verify', 'catalog', 'orders'], 'unexpected argument "orders" after verify'],
  ])('refuses %j with one line naming it, exit code 2', (argv, message) => {
    const err = refused(argv);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(message);
    expect(err.message).toMatch(/^projector: .*; see --help$/);
    expect(err.message).not.toContain('\n');
  });

  it('refuses a projection it does not host', () => {
    expect(() => checkProjectionName('catalog', ['users', 'catalog'])).not.toThrow();
    expect(() => checkProjectionName(undefined, ['users', 'catalog'])).not.toThrow();
    let err: unknown;
    try {
      checkProjectionName('catalgo', ['users', 'catalog']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('projector: no projection named "catalgo" (there are users, catalog); see --help');
  });
});

describe('the projector tool', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const tool = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'services/projector/src/main.ts', ...args],
        { cwd: root, timeout: 15_000, env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } },
        (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });

  it('prints its usage for --help and exits 0 without touching a database', { timeout: 20_000 }, async () => {
    const { code, stdout, stderr } = await tool(['--help']);
    expect(stderr).toBe('');
    expect(stdout).toContain('Usage: npm run projector -- <command>');
    expect(stdout).toContain('verify [name]');
    expect(code).toBe(0);
  });

  it('exits 2 with one line, no stack trace, for a bad value', { timeout: 20_000 }, async () => {
    const { code, stdout, stderr } = await tool(['audit', '--limit', 'abc']);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe('projector: --limit must be a whole number from 1 to 100000, not "abc"; see --help');
    expect(code).toBe(2);
  });

  it('exits 2 for a projection it does not host', { timeout: 20_000 }, async () => {
    const { code, stderr } = await tool(['verify', 'nosuch']);
    expect(stderr.trim()).toBe('projector: no projection named "nosuch" (there are users, catalog, orders, audit); see --help');
    expect(code).toBe(2);
  });
});
