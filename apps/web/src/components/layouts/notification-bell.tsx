import NotificationsNoneIcon from '@mui/icons-material/NotificationsNoneRounded';
import IconButton from '@mui/material/IconButton';
import { Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { useNotificationUnread } from '../../lib/live/unread';
import { HEADER_BUTTON_HEIGHT } from '../../lib/theme';
import { LazyBadge } from './lazy-badge';

/** The header's bell: opens /notifications; the badge counts unread ones (kept live). */
export function NotificationBell() {
  const unread = useNotificationUnread(true);
  return (
    <IconButton
      component={RouterLink}
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
      data-testid="notification-bell"
      sx={{ height: HEADER_BUTTON_HEIGHT + 6, width: HEADER_BUTTON_HEIGHT + 6 }}
    >
      {/* No badge when nothing is unread (see bottom-nav.tsx). */}
      {unread > 0 ? (
        <Suspense fallback={<NotificationsNoneIcon />}>
          <LazyBadge
            badgeContent={unread}
            max={99}
            color="primary"
            data-testid="notification-badge"
          >
            <NotificationsNoneIcon />
          </LazyBadge>
        </Suspense>
      ) : (
        <NotificationsNoneIcon />
      )}
    </IconButton>
  );
}
