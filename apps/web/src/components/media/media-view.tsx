/**
 * The web app's one media component (SPEC.md §2 "Feed rendering" and "Profile page",
 * CONTRACT.md "Media"): an `i-` key is an image (webp thumbnail `-t`, full `-f`), any other key
 * a video shown as its muted, looping, autoplaying mp4 preview `-p` with the `-t` poster.
 * Variants, by place:
 *
 * - `tile`: a feed tile (bounty feeds, the bounty page; the upload page's "In the feed"): a
 *   square thumbnail or preview, optionally with the vote count and a thumbs-up (`votes`),
 *   a link (`to`), and a video's processing state (`processing`). `eager`: on the first
 *   screen, loaded at once; otherwise loaded when scrolled near (lib/lazy-media.ts).
 * - `card`: the square media of a profile feed card (thumbnail or preview).
 * - `full`: the claim page's full-size image (its box reserved by the key's pixel size), or the
 *   video preview with controls.
 * - `fill`: fills its positioned parent (profile banner, a saved picture, a full-size viewer):
 *   a blank image first, then the thumbnail, then the full image once it has loaded (`full`,
 *   default on). No key shows the blank image.
 *
 * Elements are plain and styled by media-view.css. It imports no zod (the first screens load
 * it): a video's processing state and its words come from the caller (media-status.ts).
 */
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { Claim } from '@bountyhunt/shared/bounties';
import { formatCount } from '@bountyhunt/shared/format';
import { imageKeySize, isImageKey } from '@bountyhunt/shared/media-keys';
import { type ReactNode, type SyntheticEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { lazyMediaRef } from '../../lib/lazy-media';
import { mediaUrl } from './media-url';
import './media-view.css';

/** A video's processing state (GET /media/{key}/status) and the words shown for it. */
export interface MediaProcessing {
  status: 'processing' | 'ready' | 'failed';
  message: string;
}

export type MediaViewProps =
  | {
      variant: 'tile';
      mediaKey: string;
      /** What the media shows; with `to`, the link's label (the media itself is then decorative). */
      alt: string;
      to?: string;
      votes?: number;
      eager?: boolean;
      /** Shown instead of a video until it is ready ("Processing…", or why it failed). */
      processing?: MediaProcessing;
      testId?: string;
    }
  | { variant: 'card'; mediaKey: string; alt: string }
  | { variant: 'full'; mediaKey: string; alt: string; testId?: string }
  | {
      variant: 'fill';
      mediaKey: string | null | undefined;
      alt: string;
      /** Go on from the thumbnail to the full image (default); off for small pictures. */
      full?: boolean;
      /** On the first screen (the banner): load at once, the full image first among images. */
      eager?: boolean;
      fit?: 'cover' | 'contain';
    };

/** A missing image stays the blank image, without the browser's broken-image icon. */
function hideBroken(e: SyntheticEvent<HTMLImageElement>) {
  e.currentTarget.hidden = true;
}

/**
 * The one progressive image (SPEC.md §2 "Profile page" image viewer): the box's blank image,
 * then the thumbnail as it arrives (`data-stage` thumb), then the full image (`data-full`) once
 * the browser has it. Plain DOM work, like lib/lazy-media.ts: no re-render per stage. The
 * element is keyed by the media key, so a new key starts again from blank.
 */
function progressive(img: HTMLImageElement | null) {
  const big = img?.dataset.full;
  if (!img || !big) return;
  const pre = new Image();
  // On the first screen (the banner): the full image first among images.
  if (img.loading === 'eager') pre.fetchPriority = 'high';
  pre.onload = () => {
    img.src = big;
    img.dataset.stage = 'full';
    img.hidden = false;
  };
  pre.src = big;
  return () => {
    pre.onload = null;
  };
}

function thumbShown(e: SyntheticEvent<HTMLImageElement>) {
  const { dataset } = e.currentTarget;
  if (dataset.stage === 'blank') dataset.stage = 'thumb';
}

type AnyMediaViewProps = Partial<
  Omit<Extract<MediaViewProps, { variant: 'tile' }>, 'variant' | 'mediaKey'> &
    Omit<Extract<MediaViewProps, { variant: 'fill' }>, 'variant' | 'mediaKey'>
> & { variant: MediaViewProps['variant']; mediaKey: string | null | undefined; alt: string };

export function MediaView(props: MediaViewProps) {
  const {
    variant,
    mediaKey: key,
    alt,
    to,
    votes,
    eager = false,
    processing,
    testId,
    full = true,
    fit,
  } = props as AnyMediaViewProps;
  const big = variant === 'full';
  const tile = variant === 'tile';
  const kind = key && isImageKey(key) ? 'image' : 'video';
  const attrs = {
    className: `bh-media bh-media--${variant}${fit === 'contain' ? ' bh-media--contain' : ''}`,
    'data-testid': testId,
    'data-media-kind': kind,
    'data-media-status': processing?.status,
  };
  if (!key) return <div className={attrs.className} aria-hidden="true" />;

  // Tiles off the first screen keep their addresses in data-* until scrolled near.
  const lazy = tile && !eager;
  const at = (name: 'src' | 'poster', url: string) => ({ [lazy ? `data-${name}` : name]: url });
  const ref = lazy ? lazyMediaRef : undefined;
  // A linked tile is labelled by its link.
  const label = to ? '' : alt;
  const thumb = mediaUrl(key, 'thumb');
  // At full size the media element is the component's own element.
  const own = big ? attrs : {};
  let media: ReactNode;
  if (processing && processing.status !== 'ready') {
    media = (
      <div className="bh-media-status" role="status">
        {processing.status === 'processing' && (
          <CircularProgress size={28} color="secondary" aria-label={processing.message} />
        )}
        <Typography variant="body2" color={processing.status === 'failed' ? 'error' : undefined}>
          {processing.message}
        </Typography>
      </div>
    );
  } else if (kind === 'video') {
    media = (
      <video
        key={key}
        {...own}
        {...at('src', mediaUrl(key, 'preview'))}
        {...at('poster', thumb)}
        ref={ref}
        aria-label={label}
        controls={big}
        preload={big ? undefined : 'metadata'}
        muted
        loop
        autoPlay
        playsInline
      />
    );
  } else if (big) {
    // The key's pixel size reserves the image's box, so nothing below it moves when it loads.
    media = (
      <img
        {...own}
        src={mediaUrl(key, 'full')}
        alt={alt}
        fetchPriority="high"
        {...imageKeySize(key)}
      />
    );
  } else {
    // The feed's plain image: the thumbnail on the box's blank colour; filling images go on to
    // the full one (`progressive`).
    const fill = variant === 'fill';
    media = (
      <img
        key={key}
        {...at('src', thumb)}
        ref={ref ?? (fill ? progressive : undefined)}
        alt={label}
        loading={tile ? undefined : eager ? 'eager' : 'lazy'}
        data-stage={fill ? 'blank' : undefined}
        data-full={fill && full ? mediaUrl(key, 'full') : undefined}
        onLoad={fill ? thumbShown : undefined}
        onError={hideBroken}
      />
    );
  }
  if (big) return media;

  const badge = votes !== undefined && <span className="bh-media-votes">{formatCount(votes)}</span>;
  return to ? (
    <RouterLink to={to} aria-label={alt} {...attrs}>
      {media}
      {badge}
    </RouterLink>
  ) : (
    <div {...attrs}>
      {media}
      {badge}
    </div>
  );
}

export function claimLabel(claim: Claim): string {
  const by = claim.hunter.handle ? ` by ${claim.hunter.handle}` : '';
  return `Claim${by} on ${claim.bounty.title}`;
}

/**
 * SPEC.md §2 "Feed rendering": a round's claims as the bounty feeds show them, tiles that open
 * the claim page. `eager`: how many of the first tiles are on the first screen (loaded at once);
 * the others load when scrolled near. Kept beside the tile rather than in the bounties feature:
 * a module of its own was one more file (~0.3 KB) on the home feed's first load.
 */
export function ClaimGrid({ claims, eager = 0 }: { claims: Claim[]; eager?: number }) {
  return (
    <div className="bh-media-grid">
      {claims.map((c, i) => (
        <MediaView
          key={c.claimId}
          variant="tile"
          mediaKey={c.media}
          alt={`${claimLabel(c)}, ${c.votes} votes${c.hidden ? ', hidden by moderators' : ''}`}
          to={`/claim/${c.claimId}`}
          votes={c.votes}
          eager={i < eager}
          testId="claim-tile"
        />
      ))}
    </div>
  );
}
