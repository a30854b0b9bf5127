import { lazy } from 'react';

/**
 * MUI's Badge, loaded only when a count is first shown: it stays out of every page's first
 * JavaScript (the /login budget), and the unread counts are usually zero.
 */
export const LazyBadge = lazy(() => import('@mui/material/Badge'));
