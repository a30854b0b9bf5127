/**
 * The first requests of a hunter's profile page, started by index.html's early script before
 * the app has loaded (lib/early.ts). No React here: this is part of that script.
 */
import type { EarlyRoute } from '../../lib/early';
import type { HunterProfile } from '@bountyhunt/shared/profiles';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { hunterFeedPath, hunterProfilePath } from './api/requests';
import { mediaUrl } from '../../components/media/media-url';

/** Pages under /profile/ that are not a handle. */
const OWN_PAGES = new Set(['edit', 'post']);

/** The banner (the largest image on the first screen) and the picture. */
export function profileImages(profile: HunterProfile) {
  const out: { src: string; priority?: 'high' }[] = [];
  if (profile.banner && isImageKey(profile.banner)) {
    out.push({ src: mediaUrl(profile.banner, 'thumb') });
    out.push({ src: mediaUrl(profile.banner, 'full'), priority: 'high' });
  }
  if (profile.picture && isImageKey(profile.picture))
    out.push({ src: mediaUrl(profile.picture, 'thumb') });
  return out;
}

export const earlyRoutes: EarlyRoute[] = [
  {
    path: '/profile/:handle',
    page: 'features/profiles/pages/profile-page.tsx',
    calls: ({ handle }) =>
      handle && !OWN_PAGES.has(handle)
        ? [
            {
              method: 'GET',
              path: hunterProfilePath(handle),
              images: (answer) => profileImages(answer as HunterProfile),
              // The feed needs the hunter's id.
              then: (answer) => [
                { method: 'GET', path: hunterFeedPath((answer as HunterProfile).hunterId) },
              ],
            },
          ]
        : [],
  },
];
