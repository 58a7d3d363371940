export { startProjector, projections, type Projector } from './module';
export * from './rows';
export { rooms } from './rooms';
