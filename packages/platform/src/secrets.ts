import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProductionEnv } from './config';

export interface SecretInDataDirOptions {
  /** The variable that sets the secret instead (COMMAND_TOKEN, JWT_SECRET): named in the refusals. */
  name: string;
  /** Decides whether this is production (NODE_ENV); the process's own by default. */
  env?: NodeJS.ProcessEnv;
  /** Random bytes in a generated secret. */
  bytes?: number;
  /** A file holding fewer characters than this is refused rather than trusted. */
  minLength?: number;
}

/**
 * A secret that the deployment did not set, kept in `file` under the data dir so that every
 * local process reading the same dir shares it: read if it is there, generated once if not. In
 * production every process gets its secrets from its deployment, never from a shared disk, so
 * there this refuses (naming `name`). `generated`: this call wrote the file.
 */
export async function secretInDataDir(
  file: string,
  { name, env = process.env, bytes = 32, minLength = 1 }: SecretInDataDirOptions,
): Promise<{ secret: string; generated: boolean }> {
  if (isProductionEnv(env)) throw new Error(`${name} is required (NODE_ENV=production): set the same one on every process that needs it`);
  let generated = false;
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    // Written whole to a file of its own, then linked into place: a link fails if the name exists,
    // so when two processes start together the first one's secret is the one both use, and no
    // process ever reads a half-written file. The pending name is this call's own, so two calls in
    // one process cannot write over each other's either.
    const pending = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(pending, `${randomBytes(bytes).toString('base64url')}\n`, { mode: 0o600 });
    await link(pending, file).then(
      () => (generated = true),
      (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      },
    );
    await rm(pending, { force: true });
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < minLength) throw new Error(`${file} holds no usable secret; delete it or set ${name}`);
  return { secret, generated };
}

/**
 * Names (a column, a key) whose values are never shown to anyone: a password's hash, a secret, a
 * token, a key, a card's number or code. One rule for every listing that could show one: verify's
 * differing rows and the event log (which names it in its table definition, so a change to it
 * rebuilds that table).
 */
export const SECRET_NAME =
  /password|secret|token|hash|credential|authorization|cookie|(api|private|access|signing)_?key|cvc|cvv|card_?number|card_?no$|^pan$/i;
