/**
 * Media display of SPEC.md §2 "Feed rendering" and "Profile page": `i-` keys are images
 * (webp thumbnail `-t`, full `-f`), any other key a video shown as its muted, looping,
 * autoplaying mp4 preview `-p` with the `-t` poster. Missing media show a blank image.
 */
import Box, { type BoxProps } from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { mediaUrl } from './media-url';

const BLANK_BG = 'rgba(255,255,255,0.07)';

/** The blank image: what a missing banner or picture, or a loading image, looks like. */
export function BlankImage({ sx, ...rest }: BoxProps) {
  return <Box aria-hidden="true" {...rest} sx={{ bgcolor: BLANK_BG, ...sx }} />;
}

const fill = {
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  objectFit: 'cover',
} as const;

/**
 * The progressive image viewer: blank first, then the thumbnail, then the full image once it
 * has loaded (SPEC.md §2 Profile page).
 */
export function ProgressiveImage({
  mediaKey,
  alt,
  full = true,
  eager = false,
}: {
  mediaKey: string;
  alt: string;
  /** Also load the full-size image (banners, post pages); thumbnails only otherwise. */
  full?: boolean;
  /** On the first screen (the banner): load at once, the full image first among images. */
  eager?: boolean;
}) {
  const thumb = mediaUrl(mediaKey, 'thumb');
  const big = mediaUrl(mediaKey, 'full');
  const [thumbLoaded, setThumbLoaded] = useState(false);
  const [fullLoaded, setFullLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (!full) return;
    let live = true;
    const img = new Image();
    img.onload = () => live && setFullLoaded(big);
    if (eager) img.fetchPriority = 'high';
    img.src = big;
    return () => {
      live = false;
    };
  }, [big, full, eager]);
  const src = fullLoaded ?? thumb;
  return (
    <>
      <BlankImage sx={fill} />
      <Box
        component="img"
        src={src}
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        onLoad={() => setThumbLoaded(true)}
        data-stage={fullLoaded ? 'full' : thumbLoaded ? 'thumb' : 'blank'}
        sx={{ ...fill, opacity: thumbLoaded || fullLoaded ? 1 : 0, transition: 'opacity .2s' }}
      />
    </>
  );
}

/** A muted, looping, autoplaying inline mp4 preview with its poster. */
export function VideoPreview({ mediaKey, label }: { mediaKey: string; label: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <>
      <BlankImage sx={fill} />
      {!failed && (
        <Box
          component="video"
          src={mediaUrl(mediaKey, 'preview')}
          poster={mediaUrl(mediaKey, 'thumb')}
          muted
          loop
          autoPlay
          playsInline
          preload="metadata"
          aria-label={label}
          onError={() => setFailed(true)}
          sx={fill}
        />
      )}
    </>
  );
}

/** A square (or `ratio`) tile showing any media key. */
export function MediaTile({
  mediaKey,
  alt,
  ratio = '1 / 1',
  full = false,
}: {
  mediaKey: string;
  alt: string;
  ratio?: string;
  full?: boolean;
}) {
  return (
    <Box sx={{ position: 'relative', width: '100%', aspectRatio: ratio, overflow: 'hidden' }}>
      {isImageKey(mediaKey) ? (
        <ProgressiveImage mediaKey={mediaKey} alt={alt} full={full} />
      ) : (
        <VideoPreview mediaKey={mediaKey} label={alt} />
      )}
    </Box>
  );
}
