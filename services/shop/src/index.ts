export { startAll, type StartOptions, type Running } from './start';
