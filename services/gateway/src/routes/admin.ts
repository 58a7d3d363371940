import { Router, type Response } from 'express';
import {
  LogExportQuery,
  LogQuery,
  StreamAtQuery,
  type AdminOverview,
  type LogEvent,
  type StreamHistory,
  type VerifyReport,
} from '@tv-shop/contracts';
import { checkStreamId, streamHistory } from '@tv-shop/audit';
import { catalogStreams } from '@tv-shop/catalog';
import { identityStreams } from '@tv-shop/identity';
import { ordersStreams } from '@tv-shop/orders';
import { AppError, createLogger, describeError, notFound, readLag, waitForCheckpoint } from '@tv-shop/platform';
import { withRole } from '../auth/middleware';
import type { GatewayDeps } from '../deps';
import { parse } from '../http/validate';

const log = createLogger('gateway');

/** Every kind of stream and the service whose `evolve` folds it. */
const STREAM_MODELS = [...identityStreams, ...catalogStreams, ...ordersStreams];
const OVERVIEW_DAYS = 30;
const OVERVIEW_RECENT = 12;
const AUDIT = 'audit';
const CATCH_UP_MS = 2000;

/**
 * The admin's view of the log (issue 14): the filtered event log a page at a time, one event, an
 * entity as it was at any moment, the overview's figures, an export of the filtered log, and a
 * projection checked against a fresh replay. Admin only, every one of them: events carry
 * personal data (names, emails, phone numbers), never a secret (those are hidden at projection).
 */
export function adminRoutes({ reads, store, pool, verifier, position }: GatewayDeps): Router {
  const r = Router();
  r.use('/admin', async (req, res, next) => {
    withRole(req, 'Admin');
    // Personal data: no cache on the way may keep it.
    res.set('Cache-Control', 'no-store');
    // Writes do not wait for the event log (it is the admin's alone), so a read of it waits a
    // moment here for what every other read model already shows; if it is further behind, the
    // answer's `head` says how far it has got, and the rest arrives by push (ADR 0038).
    // (A parameter given twice is refused for every route, in app.ts.) A stream's history is read
    // from the store (only its actors' names from the event log: one just registered may show
    // without a name yet), and a verify replays it: neither waits.
    if (!/^\/(streams|projections)\//.test(req.path)) await waitForCheckpoint(pool, AUDIT, position(), CATCH_UP_MS).catch(() => {});
    next();
  });

  r.get('/admin/events', async (req, res) => {
    res.json(await reads.audit.page(parse(LogQuery, req.query, 'query')));
  });

  // Before /admin/events/:eventId, which would take "export" for an id.
  r.get('/admin/events/export', async (req, res) => {
    const { format, ...filters } = parse(LogExportQuery, req.query, 'query');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const pages = reads.audit.all(filters);
    // The first page is read before the status line: a fault there is answered as any read's
    // is (503 problem+json, Retry-After), not as a download cut short.
    let page = await pages.next();
    res.status(200);
    res.set({
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="tv-shop-events-${stamp}.${format}"`,
    });
    try {
      if (format === 'csv') await write(res, `${CSV_COLUMNS.join(',')}\r\n`);
      for (; !page.done; page = await pages.next()) {
        if (res.destroyed) return;
        await write(res, page.value.map((e) => (format === 'csv' ? csvLine(e) : `${JSON.stringify(e)}\n`)).join(''));
      }
      res.end();
    } catch (err) {
      // The status line has gone: cut the download short, so that it cannot pass for a whole one.
      log.warn('audit export: stopped part way', { error: describeError(err) });
      res.destroy();
    } finally {
      await pages.return(undefined);
    }
  });

  r.get('/admin/events/:eventId', async (req, res) => {
    const id = req.params.eventId;
    const event = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? await reads.audit.event(id) : null;
    if (!event) throw notFound('Event', 'eventId');
    res.json(event);
  });

  r.get('/admin/streams/:streamId', async (req, res) => {
    const streamId = checkStreamId(req.params.streamId);
    const { at, limit } = parse(StreamAtQuery, req.query, 'query');
    const answer: StreamHistory = await streamHistory({
      store,
      models: STREAM_MODELS,
      namesOf: (ids) => reads.audit.namesOf(ids),
      streamId,
      at,
      limit,
    });
    res.json(answer);
  });

  r.get('/admin/overview', async (_req, res) => {
    // The head, days and totals from one snapshot: whatever they include beyond the head is also
    // pushed, and a push is applied by position, so nothing falls between the answer and the pushes.
    const [{ head, days, totals }, reported, recent, lag] = await Promise.all([
      reads.audit.figures(OVERVIEW_DAYS),
      reads.catalog.reportedCount(),
      reads.audit.page({ order: 'desc', limit: OVERVIEW_RECENT }),
      readLag(pool),
    ]);
    const answer: AdminOverview = { days, totals, openReports: reported, recent: recent.events, lag: lag.lag, head };
    res.json(answer);
  });

  r.post('/admin/projections/:name/verify', async (req, res) => {
    if (!verifier) throw new AppError('unavailable', 'Projections are verified where the projector runs: npm run projector -- verify');
    const name = req.params.name;
    if (!verifier.names.includes(name)) throw notFound('Projection', 'name');
    const started = Date.now();
    const result = await verifier.verify(name);
    const answer: VerifyReport = {
      projection: result.name,
      equal: result.equal,
      position: result.position,
      tookMs: Date.now() - started,
      // Secret columns (identity's password hashes) are hidden in the rows by the comparison itself.
      differences: result.differences,
    };
    res.json(answer);
  });
  return r;
}

/**
 * Writes a chunk, waiting while the client reads slower than the log is read; a client that
 * leaves meanwhile ends the wait (its 'drain' never comes), and the caller sees `res.destroyed`.
 */
async function write(res: Response, chunk: string): Promise<void> {
  // Gone already (during the first page's read, say): its 'close' has fired, so do not wait for it.
  if (res.destroyed || res.writableEnded) return;
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const CSV_COLUMNS = [
  'position',
  'at',
  'type',
  'stream',
  'version',
  'actor_id',
  'actor_name',
  'actor_role',
  'correlation_id',
  'causation_id',
  'data',
];

/**
 * One CSV field (RFC 4180). A text that a spreadsheet would run as a formula (starting with =, +,
 * -, @, a tab or a carriage return) is written with a leading apostrophe: the log holds what
 * buyers and sellers typed.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (e: LogEvent) =>
  `${[
    e.position,
    e.at,
    e.type,
    e.streamId,
    e.version,
    e.actor.id,
    e.actor.name,
    e.actor.role,
    e.correlationId,
    e.causationId,
    JSON.stringify(e.data),
  ]
    .map(csvField)
    .join(',')}\r\n`;
