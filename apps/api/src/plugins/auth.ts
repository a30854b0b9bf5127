/** Bearer tokens (SPEC.md §6): resolves the actor once per request, on demand. */
import type { FastifyRequest } from 'fastify';
import { hasRole } from '@bountyhunt/shared/roles';
import type { Actor } from '../context';
import { forbidden, unauthorized } from '../errors';

const cache = new WeakMap<FastifyRequest, Promise<Actor | null>>();

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1]! : null;
}

export function optionalActor(request: FastifyRequest): Promise<Actor | null> {
  let pending = cache.get(request);
  if (!pending) {
    const token = bearerToken(request);
    pending = token ? request.server.root.services.auth.authenticate(token) : Promise.resolve(null);
    cache.set(request, pending);
  }
  return pending;
}

export async function requireActor(request: FastifyRequest): Promise<Actor> {
  const actor = await optionalActor(request);
  if (!actor) throw unauthorized();
  return actor;
}

/** 403 unless the actor's role has a bit of `mask` (1 member, 2 hunter). */
export async function requireRole(request: FastifyRequest, mask: number): Promise<Actor> {
  const actor = await requireActor(request);
  if (!hasRole(actor.role, mask)) throw forbidden();
  return actor;
}
