import type { User } from '@tv-shop/contracts';
import { createEntityStore } from '@/lib/entity-store';

/** Users as the admin sees them; verification and deletion arrive by push. */
export const usersStore = createEntityStore<User>();
