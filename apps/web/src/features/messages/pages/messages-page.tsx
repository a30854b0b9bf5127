/**
 * /message and /message/{conversationId}: the conversation list and a thread. Desktop: side by
 * side; mobile (≤ UI.mobileBreakpoint): two screens, the thread with a back button.
 */
import { UI } from '@bountyhunt/shared/api';
import ChatBubbleOutlineRoundedIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useConversations } from '../api/get-conversations';
import { ConversationList, NoConversations } from '../components/conversation-list';
import { loadThread } from '../load-thread';

// The thread (its send form, validation and upload code) loads when a conversation is open:
// /message alone shows only the list. routes.tsx starts it with the page on /message/{id}.
const Thread = lazy(loadThread);

/** Fills the thread's fixed-height box while its code loads (no layout shift). */
function ThreadLoading() {
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress aria-label="Loading conversation" />
    </Box>
  );
}

/** The page fills the screen between the header and the bottom nav; the thread scrolls inside. */
const HEIGHT = {
  // Header 60, the page's title 76, the bottom nav 56 and a margin.
  desktop: 'calc(100dvh - 212px)',
  // Header with the status bar 85, the bottom nav 56.
  mobile: 'calc(100dvh - 142px)',
};

function Conversations({ selected }: { selected: number | null }) {
  const { data: res, isPending } = useConversations();
  if (isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label="Loading conversations" />
      </Box>
    );
  if (!res || res.status !== 200)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {`Error loading conversations: ${res?.status ?? 500}`}
      </Alert>
    );
  return <ConversationList items={res.data.items} selected={selected} />;
}

function ChooseConversation() {
  return (
    <Box
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        color: 'text.secondary',
        p: 4,
        textAlign: 'center',
      }}
    >
      <ChatBubbleOutlineRoundedIcon sx={{ fontSize: 48 }} aria-hidden="true" />
      <Typography sx={{ mt: 1 }}>Choose a conversation to read and reply.</Typography>
    </Box>
  );
}

export default function MessagesPage() {
  const { conversationId } = useParams();
  const navigate = useNavigate();
  // noSsr: the right layout from the first render (no desktop flash on a phone).
  const mobile = useMediaQuery(`(max-width:${UI.mobileBreakpoint}px)`, { noSsr: true });
  const selected = Number(conversationId) > 0 ? Number(conversationId) : null;
  const list = useConversations();

  if (mobile)
    return (
      <Box sx={{ px: 0 }}>
        {selected ? (
          <Paper
            square
            elevation={0}
            sx={{ height: HEIGHT.mobile, minHeight: 360, display: 'flex', flexDirection: 'column' }}
          >
            <Suspense fallback={<ThreadLoading />}>
              <Thread conversationId={selected} onBack={() => navigate('/message')} />
            </Suspense>
          </Paper>
        ) : (
          <>
            <Typography variant="h1" sx={{ fontSize: '1.6rem', px: 2, pt: 2, pb: 1 }}>
              Messages
            </Typography>
            <Paper square elevation={0}>
              <Conversations selected={null} />
            </Paper>
          </>
        )}
      </Box>
    );

  // Nothing to choose from: the empty state alone says how to start.
  const empty = !selected && list.data?.status === 200 && list.data.data.items.length === 0;
  if (empty)
    return (
      <Box sx={{ maxWidth: 640, mx: 'auto', px: 2, pt: 2 }}>
        <Typography variant="h1" sx={{ fontSize: '1.8rem', mb: 1.5 }}>
          Messages
        </Typography>
        <Paper>
          <NoConversations />
        </Paper>
      </Box>
    );

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', px: 2, pt: 2 }}>
      <Typography variant="h1" sx={{ fontSize: '1.8rem', mb: 1.5 }}>
        Messages
      </Typography>
      <Paper
        sx={{
          display: 'grid',
          gridTemplateColumns: '340px 1fr',
          height: HEIGHT.desktop,
          minHeight: 420,
          overflow: 'hidden',
        }}
      >
        <Box
          component="nav"
          aria-label="Conversations"
          sx={{ borderRight: '1px solid rgba(255,255,255,0.08)', overflowY: 'auto' }}
        >
          <Conversations selected={selected} />
        </Box>
        <Box component="section" aria-label="Conversation" sx={{ minWidth: 0, minHeight: 0 }}>
          {selected ? (
            <Suspense fallback={<ThreadLoading />}>
              <Thread key={selected} conversationId={selected} />
            </Suspense>
          ) : (
            <ChooseConversation />
          )}
        </Box>
      </Paper>
    </Box>
  );
}
