export { startIdentity, type IdentityDeps } from './module';
export { userDecider, type UserCommand } from './user/decide';
export type { UserState } from './user/user';
export { userIdFor } from './user/ids';
export { hashPassword } from './user/passwords';
export { passwordSignUp, signInWithGoogleRequest, type GoogleIdentity, type IdentityRequest } from './user/sign-in';
export { ensureAdmin } from './bootstrap';
export { identityProjections, IdentityQueries, type Credentials } from './read-model';
export { identityStreams } from './streams';
