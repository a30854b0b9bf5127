import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  postCancelTarget,
  postSchema,
  PROFILE_LIMITS,
  PROFILE_MSG,
} from '@bountyhunt/shared/profiles';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useCreatePost } from '../api/create-post';
import { MediaPicker, type PickedMedia } from '../components/media-picker';

/**
 * SPEC.md §2 Create Post (/profile/post and /bounty/post/{id}): media preview, Upload Media
 * (one image or video), Body of 4 rows and at most 200 characters, Post, Cancel back.
 */
export default function CreatePostPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const create = useCreatePost();
  const [media, setMedia] = useState<PickedMedia | null>(null);
  const [uploading, setUploading] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const cancelTo = postCancelTarget(id);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError('');
    if (!media) return;
    const parsed = postSchema.safeParse({ text, fileName: media.key });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? PROFILE_MSG.postError(400));
      return;
    }
    const res = await create.mutateAsync({
      ...parsed.data,
      ...(id !== undefined ? { bountyId: Number(id) } : {}),
    });
    if (res.status !== 200) {
      setError(PROFILE_MSG.postError(res.status));
      return;
    }
    navigate('/profile');
  }

  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 2, py: 3 }}>
      <Paper component="form" onSubmit={submit} noValidate sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h1" sx={{ fontSize: '1.6rem', mb: 2 }}>
          Create Post
        </Typography>
        <MediaPicker
          onChange={(m) => {
            setMedia(m);
            setError('');
          }}
          onBusy={setUploading}
        />
        <TextField
          label="Body"
          multiline
          rows={4}
          value={text}
          onChange={(e) => {
            setText(e.target.value.slice(0, PROFILE_LIMITS.postText));
            setError('');
          }}
          slotProps={{ htmlInput: { maxLength: PROFILE_LIMITS.postText } }}
          helperText={`${text.length}/${PROFILE_LIMITS.postText}`}
          sx={{ mt: 2.5 }}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="post-error">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1.5} sx={{ mt: 2.5, justifyContent: 'flex-end' }}>
          <Button color="inherit" onClick={() => navigate(cancelTo)}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!media || uploading}
            loading={create.isPending}
          >
            Post
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
