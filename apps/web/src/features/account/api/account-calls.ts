/**
 * The account feature's calls (SPEC.md §7). Each resolves to {status, data, message} and
 * never throws; pages compare the status to pick the SPEC.md §8 message.
 */
import type { CurrentUser, User } from '@bountyhunt/shared/users';
import type { Hunter } from '@bountyhunt/shared/profiles';
import { apiRequest, type ApiResult, type RequestOptions } from '../../../lib/api-client';

export const putHandle = (handle: string) =>
  apiRequest<CurrentUser>('PUT', '/user/handle', { handle });

export const putEmail = (email: string) =>
  apiRequest<{ user: User }>('PUT', `/user/email/${encodeURIComponent(email)}`);

export const putPassword = (oldPassword: string, newPassword: string) =>
  apiRequest<null>('PUT', '/user/password', { oldPassword, newPassword });

/** Empty is sent as the text null (SPEC.md §5). */
export const putBio = (bio: string) =>
  apiRequest<Hunter>('PUT', '/hunter/bio', { bio: bio.trim() === '' ? 'null' : bio });

export const putStagename = (stagename: string) =>
  apiRequest<Hunter>('PUT', '/hunter/stagename', {
    stagename: stagename.trim() === '' ? 'null' : stagename,
  });

export const putPicture = (picture: string) =>
  apiRequest<Hunter>('PUT', '/hunter/picture', { picture });

export const putName = (firstName: string, lastName: string) =>
  apiRequest<{ user: User }>('PUT', '/user/name', { firstName, lastName });

export const putAddress = (a: { street: string; city: string; state: string; zip: string }) =>
  apiRequest<{ user: User }>('PUT', '/user/address', a);

export const putSsn = (ssn: string) =>
  apiRequest<{ user: User }>('PUT', `/user/ssn/${encodeURIComponent(ssn)}`);

export const putBank = (b: {
  name: string;
  accountType: 'checking' | 'savings';
  routingNumber: string;
  accountNumber: string;
}) => apiRequest<{ user: User }>('PUT', '/user/bank', b);

export const putIdentity = (idFront: string, idSelfie: string) =>
  apiRequest<null>('PUT', '/user/identity', { idFront, idSelfie, ageConfirmed: true });

/**
 * POST /media/image (public: profile pictures) or POST /media/identity (private: identity
 * documents, never published): raw bytes with their content type → {key}.
 */
export function uploadImage(
  file: File,
  opts: { onProgress?: (f: number) => void; privateUpload?: boolean } = {},
): Promise<ApiResult<{ key: string }>> {
  const request: RequestOptions = { raw: file, onProgress: opts.onProgress, timeoutMs: 120_000 };
  const path = opts.privateUpload ? '/media/identity' : '/media/image';
  return apiRequest<{ key: string }>('POST', path, undefined, request);
}
