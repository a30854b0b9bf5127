/**
 * SPEC.md §2 Post Claim dialog (full screen on narrow screens): the chosen image or video,
 * an error alert, Post and Cancel. The file uploads as soon as it is chosen.
 */
import { UI } from '@bountyhunt/shared/api';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { uploadMedia } from '../../../lib/upload-media';
import { useCreateClaim } from '../api/create-claim';

type Upload =
  { state: 'uploading'; progress: number } | { state: 'done'; key: string } | { state: 'failed' };

export function PostClaimDialog({
  file,
  bountyId,
  roundId,
  onClose,
}: {
  file: File;
  bountyId: number;
  roundId: number;
  onClose: () => void;
}) {
  const fullScreen = useMediaQuery(`(max-width:${UI.mobileBreakpoint}px)`);
  const [preview] = useState(() => URL.createObjectURL(file));
  const [upload, setUpload] = useState<Upload>({ state: 'uploading', progress: 0 });
  const [error, setError] = useState('');
  const post = useCreateClaim();
  const navigate = useNavigate();
  const isVideo = file.type.startsWith('video/');

  useEffect(() => () => URL.revokeObjectURL(preview), [preview]);

  useEffect(() => {
    let live = true;
    void uploadMedia(file, {
      onProgress: (p) => live && setUpload({ state: 'uploading', progress: p }),
    }).then((res) => {
      if (!live) return;
      if (res.status === 200 && res.data?.key) setUpload({ state: 'done', key: res.data.key });
      else {
        // SPEC.md §8: a failed upload logs to the console only.
        console.error(`Upload failed (${res.status}): ${res.message}`);
        setUpload({ state: 'failed' });
      }
    });
    return () => {
      live = false;
    };
  }, [file]);

  async function submit() {
    if (upload.state !== 'done') return;
    setError('');
    try {
      const res = await post.mutateAsync({ bountyId, roundId, media: upload.key, multiple: true });
      if (res.status !== 200) return setError(BOUNTY_MSG.claimPostError(res.status));
      onClose();
      navigate(`/claim/${res.data.claimId}`);
    } catch (err) {
      setError(BOUNTY_MSG.claimPostThrown(String(err)));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby="post-claim-title"
    >
      <DialogTitle id="post-claim-title">Post Claim</DialogTitle>
      <DialogContent>
        <Box
          sx={{
            borderRadius: 1,
            overflow: 'hidden',
            bgcolor: 'common.black',
            display: 'flex',
            justifyContent: 'center',
          }}
        >
          {isVideo ? (
            <Box
              component="video"
              src={preview}
              muted
              loop
              autoPlay
              playsInline
              aria-label="Your claim"
              sx={{ maxWidth: '100%', maxHeight: fullScreen ? '60vh' : 420 }}
            />
          ) : (
            <Box
              component="img"
              src={preview}
              alt="Your claim"
              data-testid="claim-preview"
              sx={{ maxWidth: '100%', maxHeight: fullScreen ? '60vh' : 420, objectFit: 'contain' }}
            />
          )}
        </Box>
        {upload.state === 'uploading' && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress
              variant={upload.progress > 0 ? 'determinate' : 'indeterminate'}
              value={upload.progress * 100}
              aria-label="Uploading"
            />
            <Typography variant="caption" color="text.secondary">
              Uploading…
            </Typography>
          </Box>
        )}
        {upload.state === 'failed' && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            This file could not be uploaded. Cancel and choose another.
          </Typography>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="claim-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={upload.state !== 'done' || post.isPending}
          startIcon={post.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          Post
        </Button>
      </DialogActions>
    </Dialog>
  );
}
