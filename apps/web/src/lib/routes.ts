/**
 * The shape of a feature's `routes.tsx` (see apps/web/README.md). The shell's router
 * (app/router.tsx) collects every `features/<feature>/routes.tsx` by itself: a feature adds,
 * replaces or removes its pages by editing only its own routes file.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';

export type LayoutKind =
  /** Header (logo, optional Sign In/Sign Out), content, footer. */
  | 'body'
  /** Search, logo, greeting, status bar, content, bottom nav. */
  | 'main'
  /** Nothing around the page. */
  | 'none';

export interface GuardSpec {
  /** Role bit mask (ROLE.member 1, ROLE.hunter 2, ROLE.any 3). */
  role: number;
  /** Members need a non-expired `active` date, hunters a handle (SPEC.md §4 Role guard). */
  active?: boolean;
}

export interface AppRoute {
  /** React Router path, e.g. '/bounty/:id'. Must be unique across all features. */
  path: string;
  layout: LayoutKind;
  /** Body layout only: show Sign In / Sign Out in the header. */
  showLogin?: boolean;
  /** Omit for public pages. */
  guard?: GuardSpec;
  /** A module whose default export is the page; loaded on first visit (code splitting). */
  page: () => Promise<{ default: ComponentType }>;
  /**
   * When the app opens on this route: starts the page's first queries at once, alongside
   * GET /user and the page's chunk, instead of after both (see `prefetchApiQuery`).
   */
  prefetch?: (at: RouteLocation, queryClient: QueryClient) => void;
}

export interface RouteLocation {
  params: Record<string, string | undefined>;
  searchParams: URLSearchParams;
}
