import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { streams } from '@tv-shop/contracts';
import { createLogger, SYSTEM_ACTOR, uuidFromName, type CommandBus, type EventStore, type RecordedEvent } from '@tv-shop/platform';
import { userIdFor } from './user/ids';
import { checkPassword, hashPassword } from './user/passwords';

const log = createLogger('tv-shop');

/** The password every earlier version started the admin with; an admin still using it gets a new one. */
const OLD_DEFAULT_PASSWORD = 'admin-password';

/** Where a generated admin password is kept (mode 0600), for the person who started TV Shop. */
export const adminPasswordFile = (dataDir: string) => path.join(dataDir, 'admin-password');

const generatePassword = () => randomBytes(18).toString('base64url');

/**
 * The admin account from ADMIN_EMAIL / ADMIN_PASSWORD: registered on first start, and its
 * password changed when the configured one changes (not when the admin changed theirs since).
 *
 * Without ADMIN_PASSWORD there is no default: the first start generates a strong password, keeps
 * it in `<dataDir>/admin-password` and prints it once. Later starts leave the admin's password as
 * it is (whoever set it last), except that the old built-in default is replaced the same way.
 */
export async function ensureAdmin(
  store: EventStore,
  bus: CommandBus,
  email: string,
  password: string | undefined,
  dataDir?: string,
): Promise<number> {
  const userId = userIdFor(email);
  const history = await store.readStream(streams.user(userId));
  const actor = SYSTEM_ACTOR;
  const register = async (pw: string) =>
    (
      await bus.send({
        service: 'identity',
        type: 'RegisterUser',
        aggregateId: userId,
        commandId: uuidFromName(`bootstrap-admin:${userId}`),
        actor,
        correlationId: 'bootstrap',
        data: { userId, name: 'Admin', email, role: 'Admin', photoURL: '', passwordHash: await hashPassword(pw), via: 'bootstrap' },
      })
    ).position;
  const changePassword = async (pw: string) =>
    (
      await bus.send({
        service: 'identity',
        type: 'ChangePassword',
        aggregateId: userId,
        commandId: uuidFromName(`admin-password:${userId}:${history.length}`),
        actor,
        correlationId: 'bootstrap',
        data: { passwordHash: await hashPassword(pw) },
      })
    ).position;

  const current = currentAdminHash(history, email);
  if (password !== undefined) {
    if (history.length === 0) return register(password);
    // Applied again only when ADMIN_PASSWORD itself changed since the shop last set it: a password
    // the admin chose since (Change password, ADR 0060) stands through restarts.
    const configured = lastSetByTheShop(history);
    if (await checkPassword(configured, password)) {
      if (configured !== current)
        log.info(`Admin ${email}: the password the admin chose stands; set a different ADMIN_PASSWORD to reset it`);
      return history[history.length - 1]!.position;
    }
    return changePassword(password);
  }

  if (!dataDir) throw new Error('ADMIN_PASSWORD is not set and there is no data dir to keep a generated one in');
  const file = adminPasswordFile(dataDir);
  if (history.length > 0 && !(await checkPassword(current, OLD_DEFAULT_PASSWORD))) {
    log.info(`Admin ${email}: password unchanged (set ADMIN_PASSWORD to change it; a generated one is kept in ${file})`);
    return history[history.length - 1]!.position;
  }
  const generated = generatePassword();
  await mkdir(dataDir, { recursive: true });
  // Written aside first and put in place only once this process's password is the one that
  // stands, so two first starts on one data dir cannot leave the file naming the wrong one.
  const pending = `${file}.${process.pid}.tmp`;
  await writeFile(pending, `${generated}\n`, { mode: 0o600 });
  const position = history.length === 0 ? await register(generated) : await changePassword(generated);
  // Another process may have created the admin at the same moment with its own password.
  const after = currentAdminHash(await store.readStream(streams.user(userId)), email);
  if (!(await checkPassword(after, generated))) {
    await rm(pending, { force: true });
    log.warn(`Admin ${email} was created by another process; its password is wherever that process kept it`);
    return position;
  }
  await rename(pending, file);
  // Printed this once; afterwards only the file says it.
  process.stdout.write(
    [
      '',
      '  ─────────────────────────────────────────────────────────────────',
      `  Admin account: ${email}`,
      `  Password:      ${generated}`,
      `  (generated because ADMIN_PASSWORD is not set; kept in ${file})`,
      '  ─────────────────────────────────────────────────────────────────',
      '',
    ].join('\n') + '\n',
  );
  return position;
}

/** The password hash the shop itself set last (registering the admin, or from ADMIN_PASSWORD), whoever changed it since. */
function lastSetByTheShop(history: RecordedEvent[]): string | null {
  let set: string | null = null;
  for (const e of history) {
    if ((e.type === 'UserRegistered' || e.type === 'PasswordChanged') && e.metadata.actorId === SYSTEM_ACTOR.id)
      set = (e.data as { passwordHash?: string | null }).passwordHash ?? null;
  }
  return set;
}

/** The admin stream's current password hash; refuses an ADMIN_EMAIL that is not an admin's. */
function currentAdminHash(history: RecordedEvent[], email: string): string | null {
  let current: string | null = null;
  for (const e of history) {
    const d = e.data as { passwordHash?: string | null; role?: string };
    if (e.type === 'UserRegistered' && d.role !== 'Admin') {
      throw new Error(`ADMIN_EMAIL ${email} belongs to a ${d.role} account; choose another address for the admin`);
    }
    if (e.type === 'UserDeleted')
      throw new Error(`ADMIN_EMAIL ${email} belongs to a deleted account; choose another address for the admin`);
    if (e.type === 'UserRegistered' || e.type === 'PasswordChanged') current = d.passwordHash ?? null;
  }
  return current;
}
