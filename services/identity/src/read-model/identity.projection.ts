import { rooms, type EventOf } from '@tv-shop/contracts';
import type { Projection, ProjectionContext } from '@tv-shop/platform';
import { toUser, type UserRow } from './rows';

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
      password_hash text, registered_at timestamptz not null
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
};
