import type { ConversationItem } from '@bountyhunt/shared/live';
import { relativeDate } from '@bountyhunt/shared/format';
import ChatBubbleOutlineRoundedIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { PeerAvatar } from './peer-avatar';

export function peerName(c: Pick<ConversationItem, 'other'>): string {
  return c.other.handle ?? 'A member';
}

function preview(c: ConversationItem): string {
  const m = c.lastMessage;
  if (!m) return 'No messages yet';
  const text = m.text.trim() || (m.hasImage ? 'Image' : '');
  return `${m.fromMe ? 'You: ' : ''}${text}`;
}

/** Empty: how a conversation starts (from a hunter's profile). */
export function NoConversations() {
  return (
    <Box sx={{ p: 4, textAlign: 'center' }} data-testid="conversations-empty">
      <ChatBubbleOutlineRoundedIcon
        sx={{ fontSize: 48, color: 'secondary.main' }}
        aria-hidden="true"
      />
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 1 }}>
        No conversations yet
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 2.5 }}>
        To start a conversation, open a hunter’s profile and press Message.
      </Typography>
      <Button component={RouterLink} to="/creators" variant="contained">
        Find hunters
      </Button>
    </Box>
  );
}

export function ConversationList({
  items,
  selected,
}: {
  items: ConversationItem[];
  selected: number | null;
}) {
  if (!items.length) return <NoConversations />;
  return (
    <List disablePadding aria-label="Conversations" data-testid="conversation-list">
      {items.map((c) => {
        const name = peerName(c);
        const when = c.lastMessage ? relativeDate(c.lastMessage.created) : '';
        return (
          <li key={c.conversationId}>
            <ListItemButton
              component={RouterLink}
              to={`/message/${c.conversationId}`}
              selected={c.conversationId === selected}
              aria-current={c.conversationId === selected ? 'page' : undefined}
              data-testid="conversation"
              data-unread={c.unread}
              sx={{ gap: 1.5, py: 1.25, borderBottom: '1px solid rgba(255,255,255,0.06)' }}
            >
              <PeerAvatar handle={c.other.handle} picture={c.other.picture} />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
                  <Typography
                    component="span"
                    sx={{
                      fontWeight: c.unread ? 700 : 600,
                      flex: 1,
                      minWidth: 0,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {name}
                  </Typography>
                  {when && (
                    <Typography component="span" variant="caption" color="text.secondary">
                      {when}
                    </Typography>
                  )}
                </Box>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <Typography
                    component="span"
                    variant="body2"
                    sx={{
                      flex: 1,
                      minWidth: 0,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                      color: c.unread ? 'text.primary' : 'text.secondary',
                    }}
                  >
                    {preview(c)}
                  </Typography>
                  {c.unread > 0 && (
                    <Chip
                      size="small"
                      color="secondary"
                      label={
                        <>
                          {c.unread > 99 ? '99+' : c.unread}
                          <Box component="span" sx={visuallyHidden}>
                            {' '}
                            unread
                          </Box>
                        </>
                      }
                      data-testid="conversation-unread"
                      sx={{ height: 20, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
                    />
                  )}
                </Box>
              </Box>
            </ListItemButton>
          </li>
        );
      })}
    </List>
  );
}
