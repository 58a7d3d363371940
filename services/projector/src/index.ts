export { startProjector, projections, type Projector } from './module';
export { projectionPositions } from './positions';
