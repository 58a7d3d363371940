export { startIdentity, type IdentityDeps } from './module';
export { userDecider, type UserCommand } from './user/decide';
