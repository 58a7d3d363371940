/**
 * Socket.IO rooms: who may see a change. The projections address their pushes to these rooms and
 * the gateway's sockets join them, so the names live here, in the vocabulary both share.
 */
export const rooms = {
  everyone: 'all',
  admins: 'role:Admin',
  user: (id: string) => `user:${id}`,
} as const;
