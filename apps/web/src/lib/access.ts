/** SPEC.md §4 Role guard and §2 Join page rules, as pure functions (tested in access.test.ts). */
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { User } from '@bountyhunt/shared/users';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { GuardSpec } from './routes';

export function isActiveMember(user: User | null, now = Date.now()): boolean {
  return !!user?.active && new Date(user.active).getTime() >= now;
}

export function hunterHandle(user: User | null, hunter: Hunter | null): string | null {
  return hunter?.handle || user?.handle || null;
}

/** May this user see a page guarded by `spec`? (Unresolved sessions are handled by the caller.) */
export function passesGuard(
  user: User | null,
  hunter: Hunter | null,
  spec: GuardSpec,
  now = Date.now(),
): boolean {
  if (!user || !hasRole(user.role, spec.role)) return false;
  if (!spec.active) return true;
  // With "active" required, a member needs a current membership and a hunter a handle;
  // either qualifying role inside the mask lets the user in.
  const asMember = hasRole(user.role & spec.role, ROLE.member) && isActiveMember(user, now);
  const asHunter = hasRole(user.role & spec.role, ROLE.hunter) && !!hunterHandle(user, hunter);
  return asMember || asHunter;
}

export type JoinCase =
  | 'member-active'
  | 'member-expired'
  | 'member-unfinished'
  | 'creator-done'
  | 'creator-unfinished'
  | 'anyone';

/** Which of the SPEC.md §2 Join page cases applies. */
export function joinCase(user: User | null, hunter: Hunter | null, now = Date.now()): JoinCase {
  if (!user) return 'anyone';
  if (hasRole(user.role, ROLE.member)) {
    if (isActiveMember(user, now)) return 'member-active';
    if (user.active) return 'member-expired';
    return 'member-unfinished';
  }
  if (hasRole(user.role, ROLE.hunter)) {
    return hunterHandle(user, hunter) ? 'creator-done' : 'creator-unfinished';
  }
  return 'anyone';
}
