import { rooms, type EventOf } from '@tv-shop/contracts';
import { LastChanges, RowSet, type BatchContext, type Projection, type ProjectionContext, type RecordedEvent } from '@tv-shop/platform';
import { SIGNED_OUT_KEPT_MS, toUser, withSignedOut, type UserRow } from './rows';

const emitUser = async (ctx: ProjectionContext, id: string) => {
  if (ctx.replaying) return; // nobody hears a replay: no need to read what would be announced
  const { rows } = await ctx.db.query<UserRow>('select * from users where id = $1', [id]);
  const row = rows[0];
  if (row) ctx.emit({ entity: 'user', op: 'upsert', id, row: toUser(row) }, [rooms.admins, rooms.user(id)]);
};

/**
 * Identity's read model: users for the admin's lists, role checks, sign-in (password hashes stay
 * server-side). Its checkpoint keeps the name `users` it had before it was called after its
 * service, so existing databases carry on where they were (a new name would replay the log into
 * the tables already there).
 */
export const identityProjection: Projection = {
  name: 'users',
  schema: 'rm_identity',
  setup: `
    create table users (
      id text primary key, name text not null, email text not null unique, photo_url text not null default '',
      role text not null, verified boolean not null default false, deleted boolean not null default false,
      password_hash text, registered_at timestamptz not null,
      -- How many times the holder ended every session: a token's stamp includes it (ADR 0062).
      sessions_ended integer not null default 0,
      -- The sessions signed out one by one, [{s, at}] (ADR 0066); those older than a token lives go.
      signed_out jsonb not null default '[]'
    );
    create index users_role on users (role) where not deleted;
    create index users_name on users (lower(name)) where not deleted;`,
  handlers: {
    UserRegistered: async (e, ctx) => {
      const d = e.data as EventOf<'UserRegistered'>['data'];
      await ctx.db.query(
        `insert into users (id, name, email, photo_url, role, password_hash, registered_at) values ($1, $2, $3, $4, $5, $6, $7)`,
        [d.userId, d.name, d.email, d.photoURL, d.role, d.passwordHash, e.metadata.at],
      );
      await emitUser(ctx, d.userId);
    },
    UserProfileUpdated: async (e, ctx) => {
      const d = e.data as EventOf<'UserProfileUpdated'>['data'];
      await ctx.db.query('update users set name = $2, photo_url = $3 where id = $1', [d.userId, d.name, d.photoURL]);
      await emitUser(ctx, d.userId);
    },
    PasswordChanged: async (e, ctx) => {
      const d = e.data as EventOf<'PasswordChanged'>['data'];
      await ctx.db.query('update users set password_hash = $2 where id = $1', [d.userId, d.passwordHash]);
      // Announced without the hash: every gateway then ends the account's other sessions (ADR 0060).
      await emitUser(ctx, d.userId);
    },
    SessionsEnded: async (e, ctx) => {
      const d = e.data as EventOf<'SessionsEnded'>['data'];
      // Every earlier token is stale by its stamp now: the sessions signed out one by one need no list.
      await ctx.db.query(`update users set sessions_ended = sessions_ended + 1, signed_out = '[]' where id = $1`, [d.userId]);
      // Announced like a new password: every gateway closes the account's sockets whose tokens are now stale.
      await emitUser(ctx, d.userId);
    },
    SignedOut: async (e, ctx) => {
      const d = e.data as EventOf<'SignedOut'>['data'];
      // As \`withSignedOut\` does in the batch form: the ones kept, in order, then this one.
      await ctx.db.query(
        `update users set signed_out = coalesce(
           (select jsonb_agg(x order by i) from jsonb_array_elements(signed_out) with ordinality as t(x, i)
             where (x->>'at')::bigint > $3::bigint - ${SIGNED_OUT_KEPT_MS} and x->>'s' <> $2), '[]'::jsonb)
           || jsonb_build_array(jsonb_build_object('s', $2::text, 'at', $3::bigint))
         where id = $1`,
        [d.userId, d.sessionId, Date.parse(e.metadata.at)],
      );
      // Announced like a new password: every gateway forgets the account it kept and closes that session's sockets.
      await emitUser(ctx, d.userId);
    },
    SellerVerified: async (e, ctx) => {
      const d = e.data as EventOf<'SellerVerified'>['data'];
      await ctx.db.query('update users set verified = true where id = $1', [d.userId]);
      await emitUser(ctx, d.userId);
    },
    UserDeleted: async (e, ctx) => {
      const d = e.data as EventOf<'UserDeleted'>['data'];
      await ctx.db.query('update users set deleted = true, password_hash = null where id = $1', [d.userId]);
      ctx.emit({ entity: 'user', op: 'remove', id: d.userId }, [rooms.admins, rooms.user(d.userId)]);
    },
  },
  // A replay or a long catch-up: the same rows, written once per batch (ADR 0044).
  applyBatch: (events, ctx) => applyBatch(events, ctx),
};

/**
 * The handlers above for a batch of events at once (every batch the runner applies, live or a
 * replay; ADRs 0044, 0047): the users the batch names are read once, each event changes them in
 * memory exactly as its handler's SQL does, and each changed row is written once. When anyone
 * listens, each changed user is announced once, as of the last event that changed it (a deleted
 * one as removed).
 */
async function applyBatch(events: RecordedEvent[], ctx: BatchContext): Promise<void> {
  const users = new RowSet<UserRow & { registered_at: string }>('users', ['id']);
  const ids = events.filter((e) => e.type in identityProjection.handlers).map((e) => (e.data as { userId: string }).userId);
  await users.load(ctx.db, 't.id = any($1)', [ids]);
  const touched = new LastChanges();
  for (const e of events) {
    switch (e.type) {
      case 'UserRegistered': {
        const d = e.data as EventOf<'UserRegistered'>['data'];
        const user = { id: d.userId, name: d.name, email: d.email, photo_url: d.photoURL, role: d.role, verified: false, deleted: false };
        users.insert({ ...user, password_hash: d.passwordHash, registered_at: e.metadata.at, sessions_ended: 0, signed_out: [] });
        touched.touch(d.userId, e.position);
        break;
      }
      case 'UserProfileUpdated': {
        const d = e.data as EventOf<'UserProfileUpdated'>['data'];
        if (users.update(d.userId, { name: d.name, photo_url: d.photoURL })) touched.touch(d.userId, e.position);
        break;
      }
      case 'PasswordChanged': {
        const d = e.data as EventOf<'PasswordChanged'>['data'];
        // Announced without the hash (it never leaves the server): gateways end the account's other sessions (ADR 0060).
        if (users.update(d.userId, { password_hash: d.passwordHash })) touched.touch(d.userId, e.position);
        break;
      }
      case 'SessionsEnded': {
        const d = e.data as EventOf<'SessionsEnded'>['data'];
        const row = users.get(d.userId);
        if (row && users.update(d.userId, { sessions_ended: row.sessions_ended + 1, signed_out: [] })) touched.touch(d.userId, e.position);
        break;
      }
      case 'SignedOut': {
        const d = e.data as EventOf<'SignedOut'>['data'];
        const row = users.get(d.userId);
        if (row && users.update(d.userId, { signed_out: withSignedOut(row.signed_out, d.sessionId, Date.parse(e.metadata.at)) }))
          touched.touch(d.userId, e.position);
        break;
      }
      case 'SellerVerified': {
        const d = e.data as EventOf<'SellerVerified'>['data'];
        if (users.update(d.userId, { verified: true })) touched.touch(d.userId, e.position);
        break;
      }
      case 'UserDeleted': {
        const d = e.data as EventOf<'UserDeleted'>['data'];
        users.update(d.userId, { deleted: true, password_hash: null });
        touched.touch(d.userId, e.position);
        break;
      }
    }
  }
  users.save(ctx);
  if (ctx.replaying) return;
  for (const [id, position] of touched) {
    const row = users.get(id);
    const to = [rooms.admins, rooms.user(id)];
    if (!row || row.deleted) ctx.emit({ entity: 'user', op: 'remove', id }, to, position);
    else ctx.emit({ entity: 'user', op: 'upsert', id, row: toUser(row) }, to, position);
  }
}
