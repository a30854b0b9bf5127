/** PUT /hunter/stagename: empty is sent as the text null (SPEC.md §5). */
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { stagenameSchema } from '@bountyhunt/shared/account';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const putStagename = (stagename: string) =>
  apiRequest<Hunter>('PUT', '/hunter/stagename', {
    stagename: stagename.trim() === '' ? 'null' : stagename,
  } satisfies z.input<typeof stagenameSchema>);
