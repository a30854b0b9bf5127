import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { useEffect, useId, useRef, useState } from 'react';
import { uploadMedia } from '../../../lib/upload-media';

interface Props {
  /** Button text, e.g. 'Upload Photo'. */
  label: string;
  /** Shown before anything is chosen (e.g. the current picture), or null for a blank box. */
  currentUrl?: string | null;
  /** Private uploads (identity documents) are never published. */
  privateUpload?: boolean;
  /** Called with the key of a finished upload, or null when a new upload starts. */
  onChange: (key: string | null) => void;
  /** Called with the upload's status when it fails. */
  onError: (status: number) => void;
  /** Round preview (profile picture) or a card (documents). */
  shape?: 'round' | 'card';
  testId?: string;
}

/**
 * Picks one image, previews it at once from the file, uploads it (POST /media/image) with a
 * progress bar, and reports the key. The preview comes from the file itself, so private
 * documents are shown without any public address.
 */
export function ImageUpload({
  label,
  currentUrl,
  privateUpload,
  onChange,
  onError,
  shape = 'round',
  testId,
}: Props) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  async function pick(file: File | undefined) {
    if (!file) return;
    setPreview(URL.createObjectURL(file));
    onChange(null);
    setProgress(0);
    // Identity documents go to POST /media/identity: never published.
    const res = await uploadMedia(file, {
      to: privateUpload ? 'identity' : 'image',
      onProgress: setProgress,
      timeoutMs: 120_000,
    });
    setProgress(null);
    if (input.current) input.current.value = '';
    if (res.status === 200 && res.data?.key) onChange(res.data.key);
    else {
      console.error('upload failed', res.status, res.message);
      onError(res.status);
    }
  }

  const shown = preview ?? currentUrl ?? null;
  const round = shape === 'round';
  return (
    <Box
      sx={{
        width: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 1.5,
      }}
    >
      <Box
        sx={{
          width: round ? 160 : '100%',
          maxWidth: round ? 160 : 360,
          aspectRatio: round ? '1 / 1' : '4 / 3',
          borderRadius: round ? '50%' : 2,
          overflow: 'hidden',
          bgcolor: 'background.default',
          border: '2px dashed rgba(255,255,255,0.2)',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={`${label} preview`}
            data-testid={testId ? `${testId}-preview` : undefined}
            sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
        ) : (
          <PhotoCameraIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden="true" />
        )}
      </Box>
      {progress !== null && (
        <Box sx={{ width: '100%', maxWidth: 360 }} aria-live="polite">
          <LinearProgress
            variant="determinate"
            value={Math.round(progress * 100)}
            aria-label={`${label} progress`}
          />
          <Typography variant="caption" color="text.secondary">
            Uploading… {Math.round(progress * 100)}%
          </Typography>
        </Box>
      )}
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif,image/heic,image/avif"
        hidden
        data-testid={testId}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button
        component="label"
        htmlFor={inputId}
        variant="outlined"
        color="secondary"
        startIcon={<PhotoCameraIcon />}
        disabled={progress !== null}
      >
        {label}
      </Button>
    </Box>
  );
}
