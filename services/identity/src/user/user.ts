import type { IdentityEvent, Role } from '@tv-shop/contracts';

export type UserEvent = IdentityEvent;

export type UserState =
  | { status: 'none' }
  | { status: 'active'; userId: string; email: string; name: string; photoURL: string; role: Role; verified: boolean }
  | { status: 'deleted'; userId: string; email: string };

export const initialState = (): UserState => ({ status: 'none' });

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, name, photoURL, role } = event.data;
      return { status: 'active', userId, email, name, photoURL, role, verified: false };
    }
    case 'UserProfileUpdated':
      return state.status === 'active' ? { ...state, name: event.data.name, photoURL: event.data.photoURL } : state;
    case 'SellerVerified':
      return state.status === 'active' ? { ...state, verified: true } : state;
    case 'UserDeleted':
      return state.status === 'active' ? { status: 'deleted', userId: state.userId, email: state.email } : state;
    case 'PasswordChanged':
      return state;
  }
}
