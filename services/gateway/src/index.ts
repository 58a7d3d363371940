export { startAll, type StartOptions, type Running } from './all-in-one';
export { createApp } from './app';
