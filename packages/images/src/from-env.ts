import path from 'node:path';
import type pg from 'pg';
import { LocalImageStore, type ImageStore } from './image-store';
import { PostgresImageStore } from './postgres-image-store';

/**
 * IMAGE_STORE: `local` (default; files under DATA_DIR/images, for one gateway) or `postgres`
 * (the shop's database, so that several gateways serve every photo; ADR 0032).
 */
export async function imageStoreFromEnv(env: NodeJS.ProcessEnv, deps: { pool: pg.Pool; dataDir: string }): Promise<ImageStore> {
  const kind = env.IMAGE_STORE?.trim() || 'local';
  if (kind === 'postgres') {
    await PostgresImageStore.migrate(deps.pool);
    return new PostgresImageStore(deps.pool);
  }
  if (kind !== 'local') throw new Error('Invalid environment variable IMAGE_STORE: must be local or postgres');
  return new LocalImageStore(path.join(deps.dataDir, 'images'));
}
