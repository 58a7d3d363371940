export { serveGateway, type EdgeParts } from './server';
export { createApp } from './app';
export { loadConfig, type GatewayConfig } from './config';
export { ReadModels } from './read-models';
