export * from './entities';
export * from './api';
export * from './events';
export * from './socket';
export * from './protocol';
export * from './commands';
export * from './rooms';
export * from './dates';
