export { startProjector, projections, projectionVerifier, type Projector, type ProjectionVerifier } from './module';
