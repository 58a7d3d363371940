import type pg from 'pg';
import { migrate, type Migration } from '@tv-shop/platform';
import { imageIdOf, imageTypeOf, type ImageStore, type ImageType } from './image-store';

const migrations: Migration[] = [
  {
    id: '0001-images',
    sql: `create schema if not exists media;
      create table media.images (
        id text primary key,
        content_type text not null,
        bytes bytea not null,
        stored_at timestamptz not null default now()
      );`,
  },
];

/**
 * Pictures in the shop's PostgreSQL (IMAGE_STORE=postgres), so that every gateway serves every
 * photo whichever one took the upload (ADR 0032). Content-addressed like the local files: the
 * same bytes uploaded twice, even at the same moment through two gateways, are one row.
 */
export class PostgresImageStore implements ImageStore {
  constructor(private readonly pool: pg.Pool) {}

  static async migrate(pool: pg.Pool): Promise<void> {
    await migrate(pool, 'images', migrations);
  }

  async put(bytes: Buffer, contentType: ImageType): Promise<string> {
    const id = imageIdOf(bytes, contentType);
    // Stored again, it is new again: the sweep's grace (ADR 0032) counts from the latest upload,
    // as a local file's time does, or a photo uploaded again for a new listing could be swept.
    await this.pool.query(
      'insert into media.images (id, content_type, bytes) values ($1, $2, $3) on conflict (id) do update set stored_at = now()',
      [id, contentType, bytes],
    );
    return id;
  }

  async get(id: string): Promise<{ bytes: Buffer; contentType: ImageType } | null> {
    if (!imageTypeOf(id)) return null;
    const { rows } = await this.pool.query<{ bytes: Buffer; content_type: ImageType }>(
      'select bytes, content_type from media.images where id = $1',
      [id],
    );
    return rows[0] ? { bytes: rows[0].bytes, contentType: rows[0].content_type } : null;
  }

  async list(): Promise<{ id: string; storedAt: Date }[]> {
    const { rows } = await this.pool.query<{ id: string; stored_at: Date }>('select id, stored_at from media.images');
    return rows.map((r) => ({ id: r.id, storedAt: r.stored_at }));
  }

  async remove(id: string): Promise<void> {
    await this.pool.query('delete from media.images where id = $1', [id]);
  }
}
