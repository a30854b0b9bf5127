/**
 * Who looks at a page, for moderated content (issue 17 part 5): a hidden item (or one of a
 * suspended user) is shown only to its owner, marked hidden, and to admins (role bit 4).
 */
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import type { Actor } from '../context';

export interface Viewer {
  /** 0 for anonymous callers (no user has id 0). */
  userId: number;
  /** Admins see hidden items like their owners. */
  admin: boolean;
}

export const ANONYMOUS: Viewer = { userId: 0, admin: false };

export function viewerOf(actor: Actor | null | undefined): Viewer {
  if (!actor) return ANONYMOUS;
  return { userId: actor.userId, admin: hasRole(actor.role, ROLE.admin) };
}

/** Whether `viewer` sees the hidden items of the user `ownerId`. */
export function seesHiddenOf(viewer: Viewer, ownerId: number | null | undefined): boolean {
  return viewer.admin || (viewer.userId !== 0 && viewer.userId === ownerId);
}

/** `{ hidden: true }` for a hidden item, nothing otherwise (answers keep their shape). */
export function hiddenMark(hidden: unknown): { hidden?: true } {
  return hidden === true || hidden === 't' ? { hidden: true } : {};
}

/** A hide or keep: the item's hidden_at before and after (undefined from a setter: no item). */
export interface HiddenChange {
  before: Date | null;
  after: Date | null;
}
