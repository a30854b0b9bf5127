import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { SECURITY_HEADERS } from '../src/app';
import { loadConfig } from '../src/env';
import { redactUrl } from '../src/plugins/logging';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '3/3600', RATE_LIMIT_ALLOW: '' } });
});
afterAll(() => t.close());

describe('HTTP conventions of CONTRACT.md', () => {
  it('GET /health answers {"status":"ok"}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('every answer (found, not found, refused, preflight) carries the security headers and its request id', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/health' }),
      t.app.inject({ method: 'GET', url: '/no/such/route' }),
      t.app.inject({ method: 'GET', url: '/user' }),
      t.app.inject({
        method: 'OPTIONS',
        url: '/vote',
        headers: { origin: 'http://example.com', 'access-control-request-method': 'POST' },
      }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 401, 204]);
    for (const res of answers) {
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(res.headers[name], name).toBe(value);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    expect(SECURITY_HEADERS['x-frame-options']).toBe('SAMEORIGIN');
    expect(SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Malformed JSON in request body.',
      code: 'INVALID_JSON',
    });
  });

  it('answers a wrong body type with 400 and a missing body with 400', async () => {
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/user',
      payload: { email: 5, password: [], hunter: 'yes' },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().code).toBe('VALIDATION');
    const none = await t.app.inject({ method: 'POST', url: '/auth' });
    expect(none.statusCode).toBe(400);
  });

  it('answers a NUL character in a path, query or body with 400, never 500', async () => {
    for (const [method, url, payload] of [
      ['GET', '/hunter/handle/%00', undefined],
      ['GET', '/hunters?q=a%00', undefined],
      ['POST', '/bounty/search', { term: 'a\u0000b' }],
    ] as const) {
      const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({
        message: 'Text may not contain NUL characters.',
        code: 'VALIDATION',
      });
    }
  });

  it('answers an unknown route with 404 in the error format', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route GET not found.', code: 'NOT_FOUND' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/user',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'Request body is too large.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('publishes an OpenAPI document and a docs page from the route schemas', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    const doc = json.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/user', '/auth', '/auth/{token}', '/health']),
    );
    expect(
      doc.paths['/user'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('email');
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('answers CORS preflights for the web origin', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/user',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('limits registrations per IP with 429 and Retry-After', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/user',
        payload: { email: uniqueEmail(), password: PASSWORD, hunter: false },
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(3000);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const register = (app: TestApp['app'], forwardedFor?: string, remoteAddress = '127.0.0.1') =>
    app.inject({
      method: 'POST',
      url: '/user',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: { email: uniqueEmail(), password: PASSWORD, hunter: false },
    });

  it('ignores X-Forwarded-For by default: a client cannot pick its rate-limit IP', async () => {
    // `t` allows 3 registrations per IP and trusts no proxy: a new forwarded address each time
    // still counts against 127.0.0.1.
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await register(t.app, `203.0.113.${i}`)).statusCode);
    expect(codes).toContain(429);
  });

  it('counts per forwarded client when the proxy is trusted, and only from that proxy', async () => {
    const app = await createTestApp({
      env: { RL_REGISTER_IP: '2/3600', RATE_LIMIT_ALLOW: '', TRUST_PROXY: '127.0.0.1' },
    });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await register(app.app, '203.0.113.5')).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      // Another client behind the same proxy has its own budget.
      expect((await register(app.app, '198.51.100.7')).statusCode).toBe(200);
      // A peer that is not the trusted proxy is the client itself, whatever it forwards.
      const peer = [];
      for (const f of ['198.51.100.8', '198.51.100.9', '198.51.100.10'])
        peer.push((await register(app.app, f, '192.0.2.10')).statusCode);
      expect(peer).toEqual([200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it('with a hop count, takes the address the proxy appended, not what the client sent', async () => {
    const app = await createTestApp({
      env: { RL_REGISTER_IP: '1/3600', RATE_LIMIT_ALLOW: '', TRUST_PROXY: '1' },
    });
    try {
      expect((await register(app.app, '203.0.113.5')).statusCode).toBe(200);
      // A proxy that appends: the client's own first entry is not believed.
      expect((await register(app.app, '10.9.9.9, 203.0.113.5')).statusCode).toBe(429);
      expect((await register(app.app, '203.0.113.6')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('secrets stay out of the logs', () => {
  it('logs no password, token or e-mail path segment of a run that used them', async () => {
    const app = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
    try {
      const s = await signUp(app.app);
      await app.app.inject({ method: 'GET', url: '/user', headers: s.auth });
      await app.app.inject({
        method: 'POST',
        url: '/auth',
        payload: { email: s.email, password: 'Wrong-pass1!' },
      });
      await app.app.inject({
        method: 'PUT',
        url: `/user/email/${encodeURIComponent('new.secret@example.com')}`,
        headers: s.auth,
      });
      await app.app.inject({ method: 'PUT', url: '/user/ssn/123456789', headers: s.auth });
      await app.app.inject({ method: 'DELETE', url: `/auth/${s.token}` });
      const all = app.logs.join('\n');
      expect(app.logs.length).toBeGreaterThan(5);
      expect(all).toContain('[REDACTED]');
      for (const secret of [s.password, 'Wrong-pass1!', s.token, 'new.secret', '123456789'])
        expect(all).not.toContain(secret);
    } finally {
      await app.close();
    }
  });

  it('redacts secret path segments and query values', () => {
    expect(redactUrl('/user/ssn/123456789')).toBe('/user/ssn/[REDACTED]');
    expect(redactUrl('/user/email/a%40b.co')).toBe('/user/email/[REDACTED]');
    expect(redactUrl('/events?watch=1&ticket=abc')).toBe('/events?watch=1&ticket=[REDACTED]');
    expect(redactUrl('/notifications/unsubscribe?u=1&t=claim_new&s=sig')).toBe(
      '/notifications/unsubscribe?u=1&t=claim_new&s=[REDACTED]',
    );
    expect(redactUrl('/email/password/a@b.co?x=1')).toBe('/email/password/[REDACTED]?x=1');
    expect(redactUrl('/auth/tok?token=abc&y=2')).toBe('/auth/[REDACTED]?token=[REDACTED]&y=2');
    expect(redactUrl('/bounty/5')).toBe('/bounty/5');
  });
});

describe('configuration', () => {
  it('names the bad variable', () => {
    expect(() => loadConfig({ API_PORT: 'abc' })).toThrow(/API_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ RL_LOGIN_IP: 'ten' })).toThrow(/RL_LOGIN_IP/);
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY/);
  });

  it('fills the embedded defaults of CONTRACT.md', () => {
    const c = loadConfig({});
    expect(c.API_PORT).toBe(5052);
    expect(c.WEB_PORT).toBe(3000);
    expect(c.dataDir).toMatch(/\/data$/);
    // The embedded PostgreSQL in DATA_DIR/postgres (a DATA_DIR holding PGlite data stays on it).
    expect(loadConfig({ DATA_DIR: '/nonexistent/bh-data' }).databaseUrl).toBe(
      'embedded-postgres:///nonexistent/bh-data/postgres',
    );
    expect(c.PUBLIC_WEB_URL).toBe('http://localhost:3000');
    expect(c.MAIL_FROM).toBe('BountyHunt <no-reply@localhost>');
    expect(c.rateLimits.loginEmail).toEqual({ limit: 10, windowMs: 900_000, onOutage: 'open' });
    expect(c.rateLimits.resetEmail.onOutage).toBe('closed');
    expect(c.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
  });

  it('message check: login message is SPEC.md wording', () => {
    expect(AUTH_MSG.loginInvalid).toBe('Invalid login credentials. Please try again.');
  });
});
