/** SPEC.md §2 "Feed rendering" and the claim page's media: claims as the bounty feeds show them. */
import { formatCount } from '@bountyhunt/shared/format';
import type { Claim } from '@bountyhunt/shared/bounties';
import { imageKeySize, isImageKey } from '@bountyhunt/shared/media-keys';
import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';
import './claim-tile.css';
import { lazyMediaRef } from '../../lib/lazy-media';
import { mediaUrl } from './media-url';

function claimLabel(claim: Claim): string {
  const by = claim.hunter.handle ? ` by ${claim.hunter.handle}` : '';
  return `Claim${by} on ${claim.bounty.title}`;
}

// Feeds show up to a hundred tiles at once: they are plain elements styled by a stylesheet
// (claim-tile.css), not MUI components, whose per-element style work made the feed's first
// render a long main-thread task on phones.
/** MUI's ThumbUp icon as a bare SVG. */
const thumbUp = (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M1 21h4V9H1zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73z" />
  </svg>
);

/**
 * A claim in a grid: opens the claim page; its thumbnail (an i- key) or muted, looping,
 * autoplaying mp4 preview, with the vote count and a thumbs-up on top. `eager`: on the first
 * screen, so its image loads at once rather than after layout (LCP); the others load when
 * scrolled near (lib/lazy-media.ts).
 */
export function ClaimTile({ claim, eager = false }: { claim: Claim; eager?: boolean }) {
  const key = claim.media;
  return (
    <RouterLink
      to={`/claim/${claim.claimId}`}
      className="bh-claim-tile"
      data-testid="claim-tile"
      aria-label={`${claimLabel(claim)}, ${claim.votes} votes`}
    >
      {isImageKey(key) ? (
        eager ? (
          <img src={mediaUrl(key, 'thumb')} alt="" />
        ) : (
          <img data-src={mediaUrl(key, 'thumb')} alt="" ref={lazyMediaRef} />
        )
      ) : (
        <video
          {...(eager
            ? { src: mediaUrl(key, 'preview'), poster: mediaUrl(key, 'thumb') }
            : {
                'data-src': mediaUrl(key, 'preview'),
                'data-poster': mediaUrl(key, 'thumb'),
                ref: lazyMediaRef,
              })}
          aria-label=""
          muted
          loop
          autoPlay
          playsInline
          preload="metadata"
        />
      )}
      <span className="bh-claim-votes">
        {thumbUp}
        {formatCount(claim.votes)}
      </span>
    </RouterLink>
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
  // The key's pixel size reserves the image's box, so nothing below it moves when it loads.
  const size = imageKeySize(claim.media);
  return isImageKey(claim.media) ? (
    <Box
      component="img"
      src={mediaUrl(claim.media, 'full')}
      alt={claimLabel(claim)}
      data-testid="claim-media"
      fetchPriority="high"
      {...(size ?? {})}
      sx={{ ...sx, height: 'auto' }}
    />
  ) : (
    <Box
      component="video"
      src={mediaUrl(claim.media, 'preview')}
      poster={mediaUrl(claim.media, 'thumb')}
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

/** `eager`: how many of the first tiles are on the first screen (loaded at once). */
export function ClaimGrid({ claims, eager = 0 }: { claims: Claim[]; eager?: number }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: { xs: 'repeat(3, 1fr)', sm: 'repeat(4, 1fr)', md: 'repeat(6, 1fr)' },
      }}
    >
      {claims.map((c, i) => (
        <ClaimTile key={c.claimId} claim={c} eager={i < eager} />
      ))}
    </Box>
  );
}
