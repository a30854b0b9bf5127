import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import type { SxProps, Theme } from '@mui/material/styles';
import { MEDIA_MSG } from '@bountyhunt/shared/media';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { feedMedia } from './media-url';
import { useMediaStatus } from './media-status';

/**
 * SPEC.md §2 "Feed rendering": an `i-` key shows its WebP thumbnail; any other key a muted,
 * looping, autoplaying inline mp4 preview, once the server has made it ("Processing…" until
 * then). With `votes`, the vote count and a thumbs-up icon sit on top.
 */
export function ClaimMedia({
  mediaKey,
  alt,
  votes,
  sx,
}: {
  mediaKey: string;
  alt: string;
  votes?: number;
  sx?: SxProps<Theme>;
}) {
  const image = isImageKey(mediaKey);
  const { data: res } = useMediaStatus(mediaKey);
  const status = image
    ? 'ready'
    : res?.status === 200
      ? res.data.status
      : res
        ? 'failed'
        : 'processing';
  const media = feedMedia(mediaKey);

  return (
    <Box
      sx={{
        position: 'relative',
        width: '100%',
        aspectRatio: '1 / 1',
        overflow: 'hidden',
        bgcolor: 'background.paper',
        borderRadius: 1,
        ...((sx as object) ?? {}),
      }}
      data-media-kind={media.kind}
      data-media-status={status}
    >
      {media.kind === 'image' ? (
        <Box
          component="img"
          src={media.src}
          alt={alt}
          loading="lazy"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : status === 'ready' ? (
        <Box
          component="video"
          src={media.src}
          poster={media.poster}
          aria-label={alt}
          muted
          loop
          autoPlay
          playsInline
          preload="metadata"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <Box
          role="status"
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 1,
            p: 2,
            textAlign: 'center',
          }}
        >
          {status === 'processing' ? (
            <>
              <CircularProgress size={28} color="secondary" aria-label={MEDIA_MSG.processing} />
              <Typography variant="body2">{MEDIA_MSG.processing}</Typography>
            </>
          ) : (
            <Typography variant="body2" color="error">
              {(res?.status === 200 && res.data.error) || MEDIA_MSG.mediaFailed}
            </Typography>
          )}
        </Box>
      )}
      {votes !== undefined && (
        <Box
          sx={{
            position: 'absolute',
            left: 6,
            bottom: 6,
            display: 'flex',
            alignItems: 'center',
            gap: 0.5,
            px: 1,
            py: 0.25,
            borderRadius: 1,
            bgcolor: 'rgba(0,0,0,0.6)',
            color: '#fff',
          }}
        >
          <ThumbUpIcon sx={{ fontSize: 16 }} aria-hidden="true" />
          <Typography variant="body2" component="span" aria-label={`${votes} votes`}>
            {votes}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
