export { auditProjections, AuditQueries } from './read-model';
export { streamHistory, checkStreamId, logEventOf } from './history';
export { redact } from './redact';
