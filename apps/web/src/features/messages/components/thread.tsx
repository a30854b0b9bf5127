/**
 * One conversation: the other party with a menu (block, unblock), the messages (mine right,
 * theirs left, images, "Seen" under my last message the other party has read), "Load earlier"
 * back through history, and the send form. Opening it, and every new message while it is
 * open, marks the thread read.
 */
import type { ConversationItem, MessageItem } from '@bountyhunt/shared/live';
import { MESSAGE_MSG } from '@bountyhunt/shared/live';
import { relativeDate } from '@bountyhunt/shared/format';
import { hasRole, ROLE } from '@bountyhunt/shared/roles';
import { imageKeySize } from '@bountyhunt/shared/media-keys';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import FlagOutlinedIcon from '@mui/icons-material/FlagOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link as RouterLink } from 'react-router';
import { mediaUrl } from '../../../components/media/media-url';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useBlockUser } from '../api/block-user';
import { useConversation } from '../api/get-conversation';
import { useThread } from '../api/get-messages';
import { useMarkRead } from '../api/mark-read';
import { peerName } from './conversation-list';
import { MessageForm } from './message-form';
import { PeerAvatar } from './peer-avatar';

function usePageVisible(): boolean {
  return useSyncExternalStore(
    (changed) => {
      document.addEventListener('visibilitychange', changed);
      return () => document.removeEventListener('visibilitychange', changed);
    },
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

const ReportDialog = lazy(() => import('../../../components/report/report-dialog'));

function MessageImage({ image }: { image: string }) {
  const size = imageKeySize(image);
  return (
    <Box
      component="a"
      href={mediaUrl(image, 'full')}
      target="_blank"
      rel="noreferrer"
      aria-label="Open the image"
      sx={{ display: 'block', mb: 0.5 }}
    >
      <Box
        component="img"
        src={mediaUrl(image, 'thumb')}
        alt="Image"
        loading="lazy"
        data-testid="message-image-view"
        sx={{
          display: 'block',
          width: 220,
          maxWidth: '100%',
          aspectRatio: size ? `${size.width} / ${size.height}` : '1 / 1',
          objectFit: 'cover',
          borderRadius: 1.5,
          bgcolor: 'rgba(255,255,255,0.08)',
        }}
      />
    </Box>
  );
}

function Bubble({
  message,
  mine,
  seen,
  onReport,
}: {
  message: MessageItem;
  mine: boolean;
  seen: boolean;
  onReport: () => void;
}) {
  return (
    <Box
      component="li"
      data-testid="message"
      data-mine={mine ? 'true' : 'false'}
      data-message-id={message.messageId}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: mine ? 'flex-end' : 'flex-start',
        mb: 1,
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          maxWidth: '80%',
          flexDirection: mine ? 'row-reverse' : 'row',
        }}
      >
        <Box
          sx={{
            px: 1.5,
            py: 1,
            borderRadius: 2.5,
            borderBottomRightRadius: mine ? 4 : undefined,
            borderBottomLeftRadius: mine ? undefined : 4,
            bgcolor: mine ? '#9c2a5f' : '#4a4a4e',
            color: '#fff',
            minWidth: 0,
          }}
        >
          {message.removed ? (
            <Typography sx={{ fontStyle: 'italic', opacity: 0.8 }} data-testid="message-removed">
              {MESSAGE_MSG.removed}
            </Typography>
          ) : null}
          {!message.removed && message.image && <MessageImage image={message.image} />}
          {!message.removed && message.text && (
            <Typography
              sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="message-text-view"
            >
              {message.text}
            </Typography>
          )}
        </Box>
        {!mine && !message.removed && (
          <IconButton
            size="small"
            aria-label="Report message"
            onClick={onReport}
            data-testid="report-message"
            sx={{ color: 'text.secondary', opacity: 0.7 }}
          >
            <FlagOutlinedIcon fontSize="small" />
          </IconButton>
        )}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ mt: 0.25, px: 0.5 }}>
        {relativeDate(message.created)}
        {seen && (
          <Box component="span" data-testid="seen" sx={{ ml: 1, color: 'secondary.main' }}>
            Seen
          </Box>
        )}
      </Typography>
    </Box>
  );
}

function ThreadHeader({
  conversation,
  onBack,
}: {
  conversation: ConversationItem;
  onBack?: () => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const block = useBlockUser(!conversation.blocked);
  const { notify } = useFeedback();
  const name = peerName(conversation);
  const { user } = useSession();
  // Conversations are started with hunters: a member's other party is one; hunters' pictures
  // tell them apart otherwise.
  const otherIsHunter = !hasRole(user?.role, ROLE.hunter) || conversation.other.picture !== null;

  async function toggleBlock() {
    setAnchor(null);
    const res = await block.mutateAsync({ userId: conversation.other.userId });
    if (res.status >= 200 && res.status < 300)
      notify(conversation.blocked ? `You unblocked ${name}.` : `You blocked ${name}.`, 'success');
    else notify(res.message || `Error (${res.status})`, 'error');
  }

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: 1.5,
        py: 1,
        borderBottom: '1px solid rgba(255,255,255,0.08)',
      }}
    >
      {onBack && (
        <IconButton aria-label="Back to conversations" onClick={onBack} data-testid="thread-back">
          <ArrowBackIcon />
        </IconButton>
      )}
      <PeerAvatar
        handle={conversation.other.handle}
        picture={conversation.other.picture}
        size={36}
      />
      <Typography
        variant="h2"
        sx={{
          fontSize: '1.1rem',
          flex: 1,
          minWidth: 0,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
        }}
        data-testid="thread-title"
      >
        {name}
      </Typography>
      <IconButton
        aria-label="Conversation options"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="thread-menu"
      >
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void toggleBlock()} data-testid="block-toggle">
          {conversation.blocked ? `Unblock ${name}` : `Block ${name}`}
        </MenuItem>
        {otherIsHunter && conversation.other.handle && (
          <MenuItem component={RouterLink} to={`/profile/${conversation.other.handle}`}>
            View profile
          </MenuItem>
        )}
      </Menu>
    </Box>
  );
}

export function Thread({
  conversationId,
  onBack,
}: {
  conversationId: number;
  onBack?: () => void;
}) {
  const { user } = useSession();
  const me = user?.userId ?? 0;
  const conv = useConversation(conversationId);
  const thread = useThread(conversationId);
  const markRead = useMarkRead(conversationId);
  const [reporting, setReporting] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const lastMarked = useRef(0);
  const keepFromBottom = useRef<number | null>(null);
  const stickToBottom = useRef(true);

  const pages = thread.data?.pages;
  const failed = pages?.find((p) => p.status !== 200);
  const messages = useMemo(
    () =>
      (pages ?? [])
        .filter((p) => p.status === 200)
        .slice()
        .reverse()
        .flatMap((p) => p.data.items),
    [pages],
  );
  const newest = messages.at(-1);
  const conversation = conv.data?.status === 200 ? conv.data.data : null;
  const lastMine = [...messages].reverse().find((m) => m.senderId === me);
  const seenId =
    conversation && lastMine && lastMine.messageId <= conversation.otherReadUpTo
      ? lastMine.messageId
      : null;

  // The thread is open and seen: everything in it is read (a hidden tab waits until shown).
  const visible = usePageVisible();
  const { mutate: markMutate } = markRead;
  useEffect(() => {
    if (!visible || !newest || newest.messageId <= lastMarked.current) return;
    lastMarked.current = newest.messageId;
    if (newest.senderId !== me || (conversation?.unread ?? 0) > 0)
      markMutate({ upTo: newest.messageId });
  }, [visible, newest, me, conversation?.unread, markMutate]);

  // Scroll: to the bottom at first and for new messages (when already there, or mine); kept
  // in place when earlier ones are added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current || newest?.senderId === me) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages, newest, me]);

  if (conv.isPending || thread.isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading conversation" />
      </Box>
    );
  if (!conversation || (failed && !messages.length)) {
    const status = conv.data?.status ?? failed?.status ?? 500;
    return (
      <Box sx={{ p: 2 }}>
        {onBack && (
          <Button startIcon={<ArrowBackIcon />} onClick={onBack} sx={{ mb: 2 }}>
            Conversations
          </Button>
        )}
        <Alert severity="error" data-testid="thread-error">
          {status === 404 || status === 403
            ? MESSAGE_MSG.conversationNotFound
            : `Error loading conversation: ${status}`}
        </Alert>
      </Box>
    );
  }

  const cannotSend = conversation.blocked || conversation.blockedByOther;
  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
      data-testid="thread"
    >
      <ThreadHeader conversation={conversation} onBack={onBack} />
      <Box
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: 1.5, py: 1 }}
        data-testid="thread-scroller"
      >
        {thread.hasNextPage && (
          <Box sx={{ textAlign: 'center', mb: 1 }}>
            <Button
              size="small"
              color="secondary"
              disabled={thread.isFetchingNextPage}
              data-testid="load-earlier"
              onClick={() => {
                const el = scroller.current;
                if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
                void thread.fetchNextPage();
              }}
            >
              {thread.isFetchingNextPage ? 'Loading…' : 'Load earlier messages'}
            </Button>
          </Box>
        )}
        {!messages.length && (
          <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
            Say hello to {peerName(conversation)}.
          </Typography>
        )}
        <Box component="ol" aria-label="Messages" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {messages.map((m) => (
            <Bubble
              key={m.messageId}
              message={m}
              mine={m.senderId === me}
              seen={m.messageId === seenId}
              onReport={() => setReporting(m.messageId)}
            />
          ))}
        </Box>
      </Box>
      {conversation.blocked && (
        <Alert severity="info" sx={{ mx: 1.5, mb: 1 }} data-testid="blocked-note">
          You blocked {peerName(conversation)}. Unblock them from the menu to send messages.
        </Alert>
      )}
      {!conversation.blocked && conversation.blockedByOther && (
        <Alert severity="info" sx={{ mx: 1.5, mb: 1 }}>
          {MESSAGE_MSG.blocked}
        </Alert>
      )}
      <MessageForm
        key={conversationId}
        conversationId={conversationId}
        disabled={cannotSend}
        onSent={() => {
          stickToBottom.current = true;
        }}
      />
      {reporting !== null && (
        <Suspense fallback={null}>
          <ReportDialog
            targetType="message"
            targetId={reporting}
            onClose={() => setReporting(null)}
          />
        </Suspense>
      )}
    </Box>
  );
}
