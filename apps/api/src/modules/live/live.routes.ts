/**
 * `GET /events` (CONTRACT.md "Operations, payouts and live events"): one Server-Sent Events
 * stream per tab. Signed in by the Authorization header (a fetch-based reader) or a single-use
 * ticket from `POST /events/ticket` (EventSource); anonymous streams get watched bounties only.
 */
import { EVENTS, eventTicketAnswer } from '@bountyhunt/shared/live';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../errors';
import { bearerToken, optionalActor, requireActor } from '../../plugins/auth';
import type { BusEvent } from './live.bus';
import { bountyTopic } from './live.service';
import { digits } from '@bountyhunt/shared/numbers';

const eventsQuery = z.object({
  /** Bounty ids whose tallies and new claims this stream receives, comma separated. */
  watch: z
    .string()
    .max(400)
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'watch is a comma-separated list of bounty ids')
    .optional(),
  ticket: z.string().max(100).optional(),
  /** Same as the Last-Event-ID header, for clients that cannot set it. */
  lastEventId: digits(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()),
});

/** A slow reader that lets this much pile up is dropped; it reconnects and replays. */
const MAX_BUFFERED = 1024 * 1024;
/** The session behind a stream is checked again this often (sign-out, suspension). */
const RECHECK_MS = 120_000;

function frame(e: BusEvent): string {
  return `id: ${e.id}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { live, auth } = app.root.services;
  // Open streams never finish by themselves: closing the server ends them (clients reconnect,
  // to another instance behind a load balancer, and resume with Last-Event-ID).
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.post(
    '/events/ticket',
    {
      onRequest: async (request) => void (await requireActor(request)),
      schema: {
        tags: ['live'],
        summary: 'A single-use ticket (one minute) for GET /events?ticket= (EventSource)',
        security: [{ bearer: [] }],
        response: { 200: eventTicketAnswer, 401: errorAnswer },
      },
    },
    async (request) => live.createTicket(await requireActor(request)),
  );

  app.get(
    '/events',
    {
      schema: {
        tags: ['live'],
        summary:
          'Server-Sent Events: messages, read receipts, notifications (signed in), tallies and new claims of watched bounties; resumes with Last-Event-ID',
        querystring: eventsQuery,
        response: { 400: errorAnswer, 401: errorAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const token = bearerToken(request);
      let userId: number | null = null;
      let sessionCheck: (() => Promise<boolean>) | null = null;
      if (q.ticket) {
        const t = await live.redeemTicket(q.ticket);
        userId = t.userId;
        sessionCheck = () => auth.sessionAlive(t.sessionId, t.userId);
      } else if (token) {
        const actor = await requireActor(request);
        userId = actor.userId;
        sessionCheck = async () => (await auth.authenticate(token)) !== null;
      } else await optionalActor(request);
      const ids = q.watch ? [...new Set(q.watch.split(',').map(Number))] : [];
      if (ids.length > EVENTS.maxWatch)
        throw badRequest(`Watch at most ${EVENTS.maxWatch} bounties.`, 'TOO_MANY_WATCHED');
      const header = request.headers['last-event-id'];
      const fromHeader =
        typeof header === 'string' && /^\d{1,16}$/.test(header) ? Number(header) : null;
      const after = fromHeader ?? q.lastEventId ?? null;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx: pass events through at once.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: ${EVENTS.retryMs}\n\n`);

      let closed = false;
      let close: () => void = () => undefined;
      const end = () => {
        if (closed) return;
        closed = true;
        open.delete(end);
        clearInterval(heartbeat);
        close();
        raw.end();
      };
      const write = (chunk: string) => {
        if (closed) return;
        raw.write(chunk);
        if (raw.writableLength > MAX_BUFFERED) end();
      };
      let sinceCheck = 0;
      const heartbeat = setInterval(() => {
        write(': ping\n\n');
        sinceCheck += app.root.config.LIVE_HEARTBEAT_MS;
        if (sessionCheck && sinceCheck >= RECHECK_MS) {
          sinceCheck = 0;
          sessionCheck().then(
            (alive) => {
              if (!alive) end();
            },
            () => undefined,
          );
        }
      }, app.root.config.LIVE_HEARTBEAT_MS);
      heartbeat.unref();
      open.add(end);
      request.raw.on('close', end);
      raw.on('error', end);
      try {
        close = await live.open({
          userId,
          topics: new Set(ids.map(bountyTopic)),
          after,
          write: (e) => write(frame(e)),
        });
        if (closed) close();
        // Comment line: the stream is open (clients and proxies see bytes at once).
        else write(': open\n\n');
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'live: open failed');
        end();
      }
    },
  );
};

export default liveRoutes;
