import type { IdentityCommand } from '@tv-shop/contracts';
import { allOf, anyone, isSystem, naming, oneOf, orTheShop, type SenderRule, type SenderRules } from '@tv-shop/platform';

/** The account's own holder, or the shop itself (the bootstrap sets the admin's password). */
const theAccountItself: SenderRule<unknown> = (_command, env) =>
  isSystem(env.actor) || env.actor.id === env.aggregateId ? null : 'You may only change your own account';

/** Who may send each of identity's commands (checked on what arrives, before anything is decided). */
export const identitySenders: SenderRules<IdentityCommand> = {
  // Anyone may sign up with a password (a visitor, before the account exists). Only the shop
  // itself opens the admin account, or an account of another kind (the bootstrap's; Google's
  // are opened by identity itself, on SignInWithGoogle).
  RegisterUser: (command, env) =>
    isSystem(env.actor)
      ? null
      : command.data.role === 'Admin'
        ? 'Only the shop itself opens the admin account'
        : command.data.via !== 'password'
          ? 'Only the shop itself opens an account without a password'
          : null,
  UpdateProfile: theAccountItself,
  ChangePassword: theAccountItself,
  EndSessions: theAccountItself,
  SignOut: theAccountItself,
  VerifySeller: oneOf('Admin'),
  // The admin asking is who the command says asks (the decider refuses their own account).
  DeleteUser: allOf(oneOf('Admin'), orTheShop(naming((command) => command.data.requestedBy))),
  // The edge verified Google's token before it asked; identity decides the account.
  SignInWithGoogle: anyone,
};
