import type { Migration } from '../db/migrate';

export const projectionMigrations: Migration[] = [
  {
    id: '0001-checkpoints',
    sql: `create table public.projection_checkpoints (
      name text primary key,
      position bigint not null default 0,
      updated_at timestamptz not null default now()
    );`,
  },
];
