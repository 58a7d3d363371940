export { startProjector, projections, type Projector } from './module';
