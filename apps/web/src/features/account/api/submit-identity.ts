/** PUT /user/identity: the two private document keys and the age confirmation (204). */
import type { IdentitySubmitInput } from '@bountyhunt/shared/account';
import { apiRequest } from '../../../lib/api-client';

export const putIdentity = (idFront: string, idSelfie: string) =>
  apiRequest<null>('PUT', '/user/identity', {
    idFront,
    idSelfie,
    ageConfirmed: true,
  } satisfies IdentitySubmitInput);
