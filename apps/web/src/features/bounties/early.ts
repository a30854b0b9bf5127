/**
 * The first requests of the bounties feature's pages, started by index.html's early script
 * before the app has loaded (lib/early.ts). No React here: this is part of that script.
 */
import type { Bounty, Claim } from '@bountyhunt/shared/bounties';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import type { EarlyRoute } from '../../lib/early';
import { mediaUrl } from '../../components/media/media-url';
import { bountyPath, claimPath, claimRankPath, feedSearchBody } from './api/requests';

const isId = (id: string | undefined): id is string => !!id && /^\d{1,10}$/.test(id);

/** The first screen's thumbnails: the LCP image is among them. */
export function thumbs(claims: Claim[] | undefined) {
  return (claims ?? [])
    .filter((c) => isImageKey(c.media))
    .map((c) => ({ src: mediaUrl(c.media, 'thumb') }));
}

/** The bounty page lists the newest round first. */
export function newestRound(bounty: Bounty) {
  return [...bounty.rounds].sort((a, b) => b.roundId - a.roundId)[0];
}

export const earlyRoutes: EarlyRoute[] = [
  {
    path: '/',
    page: 'features/bounties/pages/home-page.tsx',
    calls: (_params, search) => [
      {
        method: 'POST',
        path: '/bounty/search',
        body: feedSearchBody((search.get('q') ?? '').trim()),
        images: (answer) => thumbs((answer as Bounty[])[0]?.rounds[0]?.claims),
      },
    ],
  },
  {
    path: '/bounty/:id',
    page: 'features/bounties/pages/bounty-page.tsx',
    calls: ({ id }) =>
      isId(id)
        ? [
            {
              method: 'GET',
              path: bountyPath(id),
              images: (answer) => thumbs(newestRound(answer as Bounty)?.claims),
            },
          ]
        : [],
  },
  {
    path: '/claim/:id',
    page: 'features/bounties/pages/claim-page.tsx',
    calls: ({ id }) =>
      isId(id)
        ? [
            {
              method: 'GET',
              path: claimPath(id),
              images: (answer) => {
                const claim = answer as Claim;
                return isImageKey(claim.media)
                  ? [{ src: mediaUrl(claim.media, 'full'), priority: 'high' as const }]
                  : [];
              },
            },
            { method: 'GET', path: claimRankPath(id) },
          ]
        : [],
  },
];
