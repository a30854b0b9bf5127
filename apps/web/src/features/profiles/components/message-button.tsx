/**
 * "Message" on another hunter's profile: opens (or finds) the conversation and goes to it.
 * Visitors go to /login; signed-in users need a handle of their own (the button is hidden
 * without one).
 */
import ChatBubbleOutlineRoundedIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import Button from '@mui/material/Button';
import { useNavigate } from 'react-router';
import { hunterHandle } from '../../../lib/access';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import { useOpenConversation } from '../api/open-conversation';

export function MessageButton({ handle }: { handle: string }) {
  const { user, hunter } = useSession();
  const open = useOpenConversation();
  const navigate = useNavigate();
  const { notify } = useFeedback();
  const mine = hunterHandle(user, hunter);
  if (user && !mine) return null;

  async function start() {
    if (!user) return navigate('/login');
    const res = await open.mutateAsync({ handle });
    if (res.status === 200) navigate(`/message/${res.data.conversationId}`);
    else notify(res.message || `Error opening conversation (${res.status})`, 'error');
  }

  return (
    <Button
      variant="contained"
      size="small"
      startIcon={<ChatBubbleOutlineRoundedIcon />}
      disabled={open.isPending}
      onClick={() => void start()}
      data-testid="message-hunter"
      aria-label={`Message ${handle}`}
    >
      Message
    </Button>
  );
}
