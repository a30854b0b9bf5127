/**
 * The console's pages, in nav order: each is a path under /admin, a nav label and icon, and a
 * lazy page module. Adding a page to the console is one entry here.
 */
import type { SvgIconProps } from '@mui/material/SvgIcon';
import BadgeIcon from '@mui/icons-material/Badge';
import DashboardIcon from '@mui/icons-material/Dashboard';
import PeopleIcon from '@mui/icons-material/People';
import FlagIcon from '@mui/icons-material/Flag';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import PaymentsIcon from '@mui/icons-material/Payments';
import DescriptionIcon from '@mui/icons-material/Description';
import type { ComponentType } from 'react';

export interface AdminPage {
  /** Relative to /admin ('' is the dashboard). */
  path: string;
  label: string;
  icon: ComponentType<SvgIconProps>;
  page: () => Promise<{ default: ComponentType }>;
  /** Extra routes of the page (detail views) that keep its nav entry selected. */
  children?: { path: string; page: () => Promise<{ default: ComponentType }> }[];
}

export const ADMIN_PAGES: AdminPage[] = [
  {
    path: '',
    label: 'Dashboard',
    icon: DashboardIcon,
    page: () => import('./pages/dashboard-page'),
  },
  {
    path: 'identities',
    label: 'Identity review',
    icon: BadgeIcon,
    page: () => import('./pages/identities-page'),
    children: [{ path: 'identities/:id', page: () => import('./pages/identity-review-page') }],
  },
  {
    path: 'users',
    label: 'Users',
    icon: PeopleIcon,
    page: () => import('./pages/users-page'),
    children: [{ path: 'users/:userId', page: () => import('./pages/user-page') }],
  },
  {
    path: 'reports',
    label: 'Reports',
    icon: FlagIcon,
    page: () => import('./pages/reports-page'),
  },
  {
    path: 'payouts',
    label: 'Payouts',
    icon: PaymentsIcon,
    page: () => import('./pages/payouts-page'),
    children: [{ path: 'payouts/:batchId', page: () => import('./pages/payout-batch-page') }],
  },
  {
    path: 'tax-forms',
    label: 'Tax forms',
    icon: DescriptionIcon,
    page: () => import('./pages/tax-forms-page'),
  },
  {
    path: 'audit',
    label: 'Audit log',
    icon: ReceiptLongIcon,
    page: () => import('./pages/audit-page'),
  },
];
