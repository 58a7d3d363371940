export { startIdentity, type IdentityDeps } from './module';
export { userDecider, type UserCommand } from './user/decide';
export { googleMayAttach, foldUser, type UserState } from './user/user';
export { identityProjections, IdentityQueries } from './read-model';
