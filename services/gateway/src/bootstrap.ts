import { streams } from '@tv-shop/contracts';
import { uuidFromName, type CommandBus, type EventStore } from '@tv-shop/platform';
import { checkPassword, hashPassword } from './auth/passwords';
import { userIdFor } from './routes/auth';

/**
 * The admin account from ADMIN_EMAIL / ADMIN_PASSWORD: registered on first start, and its
 * password changed when the configured one no longer matches.
 */
export async function ensureAdmin(store: EventStore, bus: CommandBus, email: string, password: string): Promise<number> {
  const userId = userIdFor(email);
  const history = await store.readStream(streams.user(userId));
  const actor = { id: 'system', role: 'System' };
  if (history.length === 0) {
    const reply = await bus.send({
      service: 'identity',
      type: 'RegisterUser',
      aggregateId: userId,
      commandId: uuidFromName(`bootstrap-admin:${userId}`),
      actor,
      correlationId: 'bootstrap',
      data: { userId, name: 'Admin', email, role: 'Admin', photoURL: '', passwordHash: await hashPassword(password), via: 'bootstrap' },
    });
    return reply.position;
  }
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
  if (await checkPassword(current, password)) return history[history.length - 1]!.position;
  const reply = await bus.send({
    service: 'identity',
    type: 'ChangePassword',
    aggregateId: userId,
    commandId: uuidFromName(`admin-password:${userId}:${history.length}`),
    actor,
    correlationId: 'bootstrap',
    data: { passwordHash: await hashPassword(password) },
  });
  return reply.position;
}
