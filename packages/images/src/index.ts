// Pictures of TVs, users and blogs: the image port and its adapters, how an upload is checked and
// re-encoded, and the sweep of uploads nothing refers to. Knows no domain: what refers to a
// picture is asked of the read models by whoever starts the sweeper.
export * from './image-store';
export * from './process';
export * from './cleanup';
export { drawTv, encodePng } from './png';
export { PostgresImageStore } from './postgres-image-store';
export { imageStoreFromEnv } from './from-env';
