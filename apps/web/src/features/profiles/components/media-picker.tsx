import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { uploadMedia } from '../../../lib/upload-media';
import { MediaView } from '../../../components/media/media-view';

export interface PickedMedia {
  key: string;
  kind: 'image' | 'video';
}

/**
 * One image or video: a local preview at once, the upload through POST /media/* with its
 * progress, then `onChange` with the key. A failed upload is logged and explained.
 */
export function MediaPicker({
  accept = 'image/*,video/*',
  label = 'Upload Media',
  onChange,
  onBusy,
  ratio = '1 / 1',
  previewLabel = 'Media preview',
  initialKey = null,
  round = false,
}: {
  accept?: string;
  label?: string;
  onChange: (media: PickedMedia | null) => void;
  onBusy?: (busy: boolean) => void;
  ratio?: string;
  previewLabel?: string;
  /** Media already saved (e.g. the current picture), shown until a new file is chosen. */
  initialKey?: string | null;
  /** Circular preview (profile pictures). */
  round?: boolean;
}) {
  const inputId = useId();
  const [preview, setPreview] = useState<{ url: string; kind: 'image' | 'video' } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const current = useRef(0);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview.url);
    },
    [preview],
  );

  async function pick(file: File | undefined) {
    if (!file) return;
    const mine = ++current.current;
    const kind = file.type.startsWith('video/') ? 'video' : 'image';
    setPreview({ url: URL.createObjectURL(file), kind });
    setError('');
    setProgress(0);
    onChange(null);
    onBusy?.(true);
    const res = await uploadMedia(file, {
      onProgress: (f) => mine === current.current && setProgress(f),
    });
    if (mine !== current.current) return;
    setProgress(null);
    onBusy?.(false);
    if (res.status === 200 && res.data?.key) {
      onChange({ key: res.data.key, kind });
    } else {
      console.error(`Upload failed: ${res.status} ${res.message}`);
      setError(`Upload failed (${res.status})${res.message ? `: ${res.message}` : ''}`);
    }
  }

  const fill = {
    position: 'absolute',
    inset: 0,
    width: '100%',
    height: '100%',
    objectFit: 'contain',
  } as const;
  return (
    <Box>
      <Box
        data-testid="media-preview"
        sx={{
          position: 'relative',
          width: '100%',
          aspectRatio: ratio,
          overflow: 'hidden',
          borderRadius: round ? '50%' : 2,
          bgcolor: 'background.default',
        }}
      >
        {/* The blank image, or the saved media until a new file is chosen. */}
        <MediaView
          variant="fill"
          mediaKey={preview ? null : initialKey}
          alt={previewLabel}
          full={false}
        />
        {preview?.kind === 'image' && (
          <Box component="img" src={preview.url} alt={previewLabel} sx={fill} />
        )}
        {preview?.kind === 'video' && (
          <Box
            component="video"
            src={preview.url}
            muted
            loop
            autoPlay
            playsInline
            aria-label={previewLabel}
            sx={fill}
          />
        )}
        {!preview && !initialKey && (
          <Typography
            color="text.secondary"
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'grid',
              placeItems: 'center',
              px: 2,
              textAlign: 'center',
            }}
          >
            No media chosen yet
          </Typography>
        )}
      </Box>
      {progress !== null && (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          aria-label="Upload progress"
          sx={{ mt: 1 }}
        />
      )}
      <Box sx={{ mt: 1.5 }}>
        <input
          id={inputId}
          type="file"
          accept={accept}
          hidden
          data-testid="media-input"
          onChange={(e) => {
            void pick(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button
          component="label"
          htmlFor={inputId}
          variant="outlined"
          color="secondary"
          startIcon={<CloudUploadIcon />}
          loading={progress !== null}
          loadingPosition="start"
        >
          {label}
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
