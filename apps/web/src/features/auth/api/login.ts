/** POST /auth: e-mail and password → a session token and the user (400: wrong). */
import type { AuthAnswer } from '@bountyhunt/shared/api';
import type { LoginInput } from '@bountyhunt/shared/schemas';
import { apiRequest } from '../../../lib/api-client';

export const postLogin = (body: LoginInput) => apiRequest<AuthAnswer>('POST', '/auth', body);
