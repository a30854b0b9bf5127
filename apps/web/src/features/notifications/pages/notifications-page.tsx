/**
 * /notifications: newest first, unread ones highlighted; a click marks it read and goes to its
 * link. "Mark all as read", "Load more", and a link to the settings.
 */
import type { NotificationItem } from '@bountyhunt/shared/live';
import { relativeDate } from '@bountyhunt/shared/format';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNoneRounded';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-read';

function Row({
  item,
  first,
  onOpen,
}: {
  item: NotificationItem;
  first: boolean;
  onOpen: (item: NotificationItem) => void;
}) {
  return (
    <li>
      <ListItemButton
        onClick={() => onOpen(item)}
        data-testid="notification"
        data-read={item.read ? 'true' : 'false'}
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          gap: 1.5,
          px: 2,
          py: 1.5,
          borderTop: first ? 'none' : '1px solid rgba(255,255,255,0.08)',
          bgcolor: item.read ? 'transparent' : 'rgba(216, 62, 134, 0.14)',
        }}
      >
        <Box
          aria-hidden="true"
          sx={{
            width: 10,
            height: 10,
            mt: 0.8,
            flex: '0 0 auto',
            borderRadius: '50%',
            bgcolor: item.read ? 'transparent' : 'secondary.main',
          }}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: item.read ? 500 : 700 }}>
            {item.title}
            {!item.read && (
              <Box component="span" sx={visuallyHidden}>
                {' '}
                (unread)
              </Box>
            )}
          </Typography>
          {item.body && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
              {item.body}
            </Typography>
          )}
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap', mt: 0.3 }}>
          {relativeDate(item.created)}
        </Typography>
      </ListItemButton>
    </li>
  );
}

export default function NotificationsPage() {
  const list = useNotifications();
  const markRead = useMarkNotificationsRead();
  const navigate = useNavigate();
  const pages = list.data?.pages ?? [];
  const failed = pages.find((p) => p.status !== 200);
  const items = pages.filter((p) => p.status === 200).flatMap((p) => p.data.items);
  const unread = pages[0]?.status === 200 ? pages[0].data.unread : 0;

  function open(item: NotificationItem) {
    if (!item.read) markRead.mutate({ upTo: item.notificationId });
    if (item.link) navigate(item.link);
  }

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', px: 2, py: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, flex: 1 }}>
          Notifications
        </Typography>
        <Button
          component={RouterLink}
          to="/account/notifications"
          color="inherit"
          size="small"
          startIcon={<SettingsOutlinedIcon />}
          data-testid="notification-settings-link"
        >
          Settings
        </Button>
        <Button
          variant="outlined"
          color="secondary"
          size="small"
          startIcon={<DoneAllIcon />}
          disabled={unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({})}
          data-testid="mark-all-read"
        >
          Mark all as read
        </Button>
      </Box>
      {list.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label="Loading notifications" />
        </Box>
      ) : (
        <>
          {failed && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {`Error loading notifications: ${failed.status}`}
            </Alert>
          )}
          {!failed && items.length === 0 && (
            <Paper sx={{ p: 5, textAlign: 'center' }} data-testid="notifications-empty">
              <NotificationsNoneIcon
                sx={{ fontSize: 48, color: 'text.secondary' }}
                aria-hidden="true"
              />
              <Typography sx={{ mt: 1 }}>Nothing yet.</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                New claims, results, payouts and messages show up here.
              </Typography>
            </Paper>
          )}
          {items.length > 0 && (
            <Paper sx={{ overflow: 'hidden' }}>
              <List disablePadding aria-label="Notifications">
                {items.map((n, i) => (
                  <Row key={n.notificationId} item={n} first={i === 0} onOpen={open} />
                ))}
              </List>
            </Paper>
          )}
          {list.hasNextPage && (
            <Box sx={{ textAlign: 'center', mt: 2 }}>
              <Button
                variant="outlined"
                color="inherit"
                disabled={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
                data-testid="notifications-more"
              >
                {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </Box>
          )}
        </>
      )}
    </Box>
  );
}
