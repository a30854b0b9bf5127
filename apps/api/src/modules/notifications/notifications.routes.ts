/** Notifications (issue 19): the bell's list, read marks, per-type settings, unsubscribe links. */
import {
  notificationListAnswer,
  notificationPageQuery,
  notificationReadSchema,
  notificationSettingsAnswer,
  notificationSettingsSchema,
} from '@bountyhunt/shared/live';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml } from '../../mail/templates';
import { requireActor } from '../../plugins/auth';
import { digits } from '@bountyhunt/shared/numbers';

const errors = { 400: errorAnswer, 401: errorAnswer };

const unsubscribeQuery = z.object({
  u: digits(z.number().int().positive().max(2_147_483_647)),
  t: z.string().max(40),
  s: z.string().max(64),
});

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · BountyHunt</title><style>body{margin:0;background:#303030;color:#fff;font:16px/1.5 system-ui,sans-serif}main{max-width:480px;margin:64px auto;padding:32px;background:#424242;border-radius:8px}h1{font-size:22px;margin:0 0 16px}button{background:#d83e86;color:#fff;border:0;border-radius:4px;padding:10px 20px;font-size:16px;cursor:pointer}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.root.services;
  // Mail clients' one-click POST and the page's form send a form body; nothing in it is used.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );
  const signedIn = async (request: Parameters<typeof requireActor>[0]) =>
    void (await requireActor(request));

  app.get(
    '/notifications',
    {
      onRequest: signedIn,
      schema: {
        tags: ['notifications'],
        summary: 'My notifications, newest first (before = nextBefore of the last page)',
        security: [{ bearer: [] }],
        querystring: notificationPageQuery,
        response: { 200: notificationListAnswer, ...errors },
      },
    },
    async (request) => notifications.list(await requireActor(request), request.query),
  );

  app.post(
    '/notifications/read',
    {
      onRequest: signedIn,
      schema: {
        tags: ['notifications'],
        summary: 'Marks my notifications read up to an id (all without one)',
        security: [{ bearer: [] }],
        body: notificationReadSchema,
        response: { 200: z.object({ unread: z.number().int() }), ...errors },
      },
    },
    async (request) => notifications.markRead(await requireActor(request), request.body.upTo),
  );

  app.get(
    '/notifications/settings',
    {
      onRequest: signedIn,
      schema: {
        tags: ['notifications'],
        summary: 'In app and e-mail, per notification type',
        security: [{ bearer: [] }],
        response: { 200: notificationSettingsAnswer, ...errors },
      },
    },
    async (request) => notifications.settings(await requireActor(request)),
  );

  app.put(
    '/notifications/settings',
    {
      onRequest: signedIn,
      schema: {
        tags: ['notifications'],
        summary: 'Saves the given types (others keep their setting)',
        security: [{ bearer: [] }],
        body: notificationSettingsSchema,
        response: { 200: notificationSettingsAnswer, ...errors },
      },
    },
    async (request) => notifications.saveSettings(await requireActor(request), request.body),
  );

  // The link in every notification mail. GET asks (mail scanners open links), POST does it:
  // the form's button, and mail clients' one-click (RFC 8058 List-Unsubscribe-Post).
  app.get(
    '/notifications/unsubscribe',
    {
      schema: {
        tags: ['notifications'],
        summary: 'The unsubscribe page of a notification mail (no sign-in)',
        querystring: unsubscribeQuery,
      },
    },
    async (request, reply) => {
      const { u, t, s } = request.query;
      const label = notifications.checkUnsubscribe(u, t, s);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!label)
        return reply
          .code(404)
          .send(page('Link not valid', '<p>This unsubscribe link is not valid.</p>'));
      const action = `/notifications/unsubscribe?u=${u}&t=${encodeURIComponent(t)}&s=${encodeURIComponent(s)}`;
      return page(
        'Unsubscribe',
        `<p>Stop e-mails about: <strong>${escapeHtml(label)}</strong>?</p><form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    '/notifications/unsubscribe',
    {
      schema: {
        tags: ['notifications'],
        summary: 'One-click unsubscribe (RFC 8058); no sign-in, the link is signed',
        querystring: unsubscribeQuery,
      },
    },
    async (request, reply) => {
      const { u, t, s } = request.query;
      const label = await notifications.unsubscribe(u, t, s);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!label)
        return reply
          .code(404)
          .send(page('Link not valid', '<p>This unsubscribe link is not valid.</p>'));
      return page(
        'Unsubscribed',
        `<p>You will no longer get e-mails about: <strong>${escapeHtml(label)}</strong>. You can turn them back on in your notification settings.</p>`,
      );
    },
  );
};

export default notificationsRoutes;
