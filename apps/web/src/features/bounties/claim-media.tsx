/** SPEC.md §2 "Feed rendering" and the claim page's media. */
import type { Claim } from '@bountyhunt/shared/bounties';
import { isImageKey } from '@bountyhunt/shared/keys';
import ThumbUpIcon from '@mui/icons-material/ThumbUp';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { mediaBaseUrl } from '../../lib/config';

export const mediaSrc = {
  thumb: (key: string) => `${mediaBaseUrl()}${key}-t.webp`,
  full: (key: string) => `${mediaBaseUrl()}${key}-f.webp`,
  preview: (key: string) => `${mediaBaseUrl()}${key}-p.mp4`,
};

function claimLabel(claim: Claim): string {
  const by = claim.hunter.handle ? ` by ${claim.hunter.handle}` : '';
  return `Claim${by} on ${claim.bounty.title}`;
}

/** An i- key: its WebP thumbnail; otherwise a muted, looping, autoplaying mp4 preview. */
export function FeedMedia({ mediaKey, alt }: { mediaKey: string; alt: string }) {
  const fill = { width: '100%', height: '100%', objectFit: 'cover', display: 'block' } as const;
  return isImageKey(mediaKey) ? (
    <Box component="img" src={mediaSrc.thumb(mediaKey)} alt={alt} loading="lazy" sx={fill} />
  ) : (
    <Box
      component="video"
      src={mediaSrc.preview(mediaKey)}
      poster={mediaSrc.thumb(mediaKey)}
      aria-label={alt}
      muted
      loop
      autoPlay
      playsInline
      preload="metadata"
      sx={fill}
    />
  );
}

/** A claim in a grid: opens the claim page; vote count with a thumbs-up on top. */
export function ClaimTile({ claim }: { claim: Claim }) {
  return (
    <Box
      component={RouterLink}
      to={`/claim/${claim.claimId}`}
      data-testid="claim-tile"
      aria-label={`${claimLabel(claim)}, ${claim.votes} votes`}
      sx={{
        position: 'relative',
        display: 'block',
        aspectRatio: '1 / 1',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: 'background.default',
        outlineOffset: 2,
      }}
    >
      <FeedMedia mediaKey={claim.media} alt="" />
      <Box
        sx={{
          position: 'absolute',
          left: 6,
          bottom: 6,
          display: 'inline-flex',
          alignItems: 'center',
          gap: 0.5,
          px: 0.75,
          py: 0.25,
          borderRadius: 1,
          bgcolor: 'rgba(0,0,0,0.7)',
          color: '#fff',
        }}
      >
        <ThumbUpIcon sx={{ fontSize: 16 }} aria-hidden="true" />
        <Typography variant="caption" component="span" sx={{ fontWeight: 700 }}>
          {claim.votes.toLocaleString('en-US')}
        </Typography>
      </Box>
    </Box>
  );
}

/** The claim page's media: the full image, or the video preview with controls. */
export function ClaimMediaLarge({ claim }: { claim: Claim }) {
  const sx = {
    width: '100%',
    maxHeight: '70vh',
    objectFit: 'contain',
    display: 'block',
    bgcolor: 'common.black',
    borderRadius: 1,
  } as const;
  return isImageKey(claim.media) ? (
    <Box
      component="img"
      src={mediaSrc.full(claim.media)}
      alt={claimLabel(claim)}
      data-testid="claim-media"
      sx={sx}
    />
  ) : (
    <Box
      component="video"
      src={mediaSrc.preview(claim.media)}
      poster={mediaSrc.thumb(claim.media)}
      aria-label={claimLabel(claim)}
      data-testid="claim-media"
      controls
      muted
      loop
      autoPlay
      playsInline
      sx={sx}
    />
  );
}

export function ClaimGrid({ claims }: { claims: Claim[] }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: { xs: 'repeat(3, 1fr)', sm: 'repeat(4, 1fr)', md: 'repeat(6, 1fr)' },
      }}
    >
      {claims.map((c) => (
        <ClaimTile key={c.claimId} claim={c} />
      ))}
    </Box>
  );
}
