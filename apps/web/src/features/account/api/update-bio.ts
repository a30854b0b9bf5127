/** PUT /hunter/bio: empty is sent as the text null (SPEC.md §5). */
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { bioSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const putBio = (bio: string) =>
  apiRequest<Hunter>('PUT', '/hunter/bio', {
    bio: bio.trim() === '' ? 'null' : bio,
  } satisfies z.input<typeof bioSchema>);
