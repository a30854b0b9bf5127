import ChatBubbleOutlineRoundedIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** SPEC.md §2 /message: the Messages entry of the nav bar. No messages exist in the product. */
export default function MessagesPage() {
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', px: 2, py: 4 }}>
      <Typography variant="h1" sx={{ mb: 3 }}>
        Messages
      </Typography>
      <Paper sx={{ p: 5, textAlign: 'center' }}>
        <ChatBubbleOutlineRoundedIcon
          sx={{ fontSize: 48, color: 'text.secondary' }}
          aria-hidden="true"
        />
        <Typography sx={{ mt: 1 }}>You have no messages.</Typography>
      </Paper>
    </Box>
  );
}
