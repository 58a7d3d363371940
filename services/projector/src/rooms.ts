/** Socket.IO rooms: who may see a change. */
export const rooms = {
  everyone: 'all',
  admins: 'role:Admin',
  user: (id: string) => `user:${id}`,
} as const;
