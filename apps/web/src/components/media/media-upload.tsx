import { useEffect, useId, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import {
  IMAGE_ACCEPT,
  IMAGE_TYPES,
  MEDIA_MSG,
  VIDEO_ACCEPT,
  VIDEO_TYPES,
} from '@bountyhunt/shared/media';
import { uploadMedia } from '../../lib/upload-media';
import { useMediaProcessing } from './media-status';
import { MediaView } from './media-view';

export type UploadKind = 'image' | 'video';

export interface Uploaded {
  key: string;
  kind: UploadKind;
  file: File;
}

const IMAGE_SET = new Set<string>(IMAGE_TYPES);
const VIDEO_SET = new Set<string>([...VIDEO_TYPES, 'video/x-m4v']);

function kindOf(file: File): UploadKind | null {
  const type = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  if (IMAGE_SET.has(type)) return 'image';
  if (VIDEO_SET.has(type)) return 'video';
  return null;
}

/**
 * One file, uploaded as soon as it is chosen (SPEC.md §4 "Upload has a loading state"): a
 * preview of the chosen image or video, a progress bar, the key when the server answers
 * (`onUploaded`), and the server's message when it refuses (too large, wrong type…).
 * `accept`: 'image' (claims, pictures), 'video', or 'any' (posts). `private` sends images to
 * POST /media/identity (identity documents: never published).
 */
export function MediaUpload({
  accept = 'image',
  label = 'Upload Media',
  private: isPrivate = false,
  onUploaded,
  onError,
  onBusyChange,
  disabled,
}: {
  accept?: 'image' | 'video' | 'any';
  label?: string;
  private?: boolean;
  onUploaded: (u: Uploaded) => void;
  onError?: (status: number, message: string) => void;
  onBusyChange?: (busy: boolean) => void;
  disabled?: boolean;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [preview, setPreview] = useState<{ url: string; kind: UploadKind } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState<Uploaded | null>(null);
  const shown = done && done.kind === 'video' && !isPrivate ? done.key : null;
  const processing = useMediaProcessing(shown);

  // Object URLs hold the file in memory: free each when replaced or unmounted.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);
  useEffect(() => () => abort.current?.abort(), []);

  const acceptAttr =
    accept === 'image'
      ? IMAGE_ACCEPT
      : accept === 'video'
        ? VIDEO_ACCEPT
        : `${IMAGE_ACCEPT},${VIDEO_ACCEPT}`;
  const busy = progress !== null;

  async function choose(file: File) {
    setError('');
    setDone(null);
    const kind = kindOf(file);
    if (!kind || (accept !== 'any' && kind !== accept)) {
      const msg =
        accept === 'video' || (accept === 'any' && file.type.startsWith('video/'))
          ? MEDIA_MSG.videoType
          : MEDIA_MSG.imageType;
      setError(msg);
      onError?.(415, msg);
      return;
    }
    setPreview({ url: URL.createObjectURL(file), kind });
    setProgress(0);
    onBusyChange?.(true);
    abort.current?.abort();
    abort.current = new AbortController();
    const res = await uploadMedia(file, {
      to: kind === 'video' ? 'video' : isPrivate ? 'identity' : 'image',
      onProgress: (f) => setProgress(Math.round(f * 100)),
      signal: abort.current.signal,
    });
    setProgress(null);
    onBusyChange?.(false);
    if (res.status === 200 && res.data?.key) {
      const uploaded = { key: res.data.key, kind, file };
      setDone(uploaded);
      onUploaded(uploaded);
    } else {
      // SPEC.md §8: a failed upload logs to the console; the component also says why.
      console.error(`upload failed (${res.status}): ${res.message}`);
      setPreview(null); // the refused file is not what will be posted
      const msg =
        res.message && res.message !== 'UNKNOWN_ERROR'
          ? res.message
          : `Upload failed (Error: ${res.status}).`;
      setError(msg);
      onError?.(res.status, msg);
    }
  }

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, width: '100%' }}
      data-testid="media-upload"
    >
      {preview && (
        <Box
          sx={{ position: 'relative', width: '100%', maxWidth: 360, alignSelf: 'center' }}
          data-testid="media-preview"
        >
          {shown ? (
            // After the upload: the server's preview once processed ("Processing…" until then).
            <MediaView
              variant="tile"
              mediaKey={shown}
              alt="Uploaded video"
              eager
              processing={processing}
            />
          ) : preview.kind === 'image' ? (
            <Box
              component="img"
              src={preview.url}
              alt="Selected image preview"
              sx={{
                width: '100%',
                maxHeight: 360,
                objectFit: 'contain',
                borderRadius: 1,
                display: 'block',
              }}
            />
          ) : (
            <Box
              component="video"
              src={preview.url}
              aria-label="Selected video preview"
              muted
              loop
              autoPlay
              playsInline
              sx={{ width: '100%', maxHeight: 360, borderRadius: 1, display: 'block' }}
            />
          )}
        </Box>
      )}
      {busy && (
        <Box>
          <LinearProgress
            variant="determinate"
            value={progress ?? 0}
            color="secondary"
            aria-label="Upload progress"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }} role="status">
            Uploading… {progress}%
          </Typography>
        </Box>
      )}
      {error && (
        <Alert severity="error" onClose={() => setError('')}>
          {error}
        </Alert>
      )}
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={acceptAttr}
        hidden
        data-testid="media-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void choose(file);
        }}
      />
      <Button
        variant="contained"
        startIcon={<CloudUploadIcon />}
        disabled={disabled || busy}
        loading={busy}
        loadingPosition="start"
        onClick={() => input.current?.click()}
        sx={{ color: '#000', alignSelf: 'center' }}
      >
        {label}
      </Button>
    </Box>
  );
}
