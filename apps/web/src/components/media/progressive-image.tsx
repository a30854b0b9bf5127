import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { BLANK_IMAGE, mediaUrl } from './media-url';

type Stage = 'blank' | 'thumb' | 'full';

function preload(src: string): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(true);
    img.onerror = () => resolve(false);
    img.src = src;
  });
}

/**
 * SPEC.md §2 "Profile page" image viewer: a blank image first, then the thumbnail, then the
 * full image once it has loaded. No key (or an image that fails) stays blank.
 */
export function ProgressiveImage({
  mediaKey,
  alt,
  sx,
  fit = 'cover',
  thumbOnly = false,
}: {
  mediaKey: string | null | undefined;
  alt: string;
  sx?: SxProps<Theme>;
  fit?: 'cover' | 'contain';
  /** Stop at the thumbnail (small avatars). */
  thumbOnly?: boolean;
}) {
  const [state, setState] = useState<{ key: string | null | undefined; stage: Stage }>({
    key: mediaKey,
    stage: 'blank',
  });
  // A new key starts again from blank (derived during render, no effect needed).
  const stage = state.key === mediaKey ? state.stage : 'blank';
  if (state.key !== mediaKey) setState({ key: mediaKey, stage: 'blank' });

  useEffect(() => {
    if (!mediaKey) return;
    let live = true;
    void (async () => {
      if (!(await preload(mediaUrl(mediaKey, 'thumb'))) || !live) return;
      setState({ key: mediaKey, stage: 'thumb' });
      if (thumbOnly) return;
      if (!(await preload(mediaUrl(mediaKey, 'full'))) || !live) return;
      setState({ key: mediaKey, stage: 'full' });
    })();
    return () => {
      live = false;
    };
  }, [mediaKey, thumbOnly]);

  const src =
    !mediaKey || stage === 'blank'
      ? BLANK_IMAGE
      : mediaUrl(mediaKey, stage === 'full' ? 'full' : 'thumb');
  return (
    <Box
      component="img"
      src={src}
      alt={alt}
      data-stage={mediaKey ? stage : 'blank'}
      sx={{
        display: 'block',
        width: '100%',
        height: '100%',
        objectFit: fit,
        bgcolor: 'background.paper',
        ...((sx as object) ?? {}),
      }}
    />
  );
}
