/** PUT /hunter/picture: the uploaded image's key. */
import type { pictureSchema } from '@bountyhunt/shared/account';
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export const putPicture = (picture: string) =>
  apiRequest<Hunter>('PUT', '/hunter/picture', { picture } satisfies z.input<typeof pictureSchema>);
