import type { User } from '@tv-shop/contracts';
import { createEntityStore } from '@/lib/entity-store';

/**
 * Users as the admin sees them; verification and deletion arrive by push. The server lists them
 * oldest first (`GET /users_role`, as the spec's server did), so one who signs up goes at the bottom.
 */
export const usersStore = createEntityStore<User>({ newRowsAt: 'bottom' });
