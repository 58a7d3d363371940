export * from './entities';
export * from './api';
export * from './events';
export * from './socket';
export * from './paths';
export * from './commands';
export * from './rooms';
