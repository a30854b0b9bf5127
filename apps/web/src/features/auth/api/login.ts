/** POST /auth: e-mail and password → a session token and the user (400: wrong). */
import type { AuthAnswer, LoginInput } from '@bountyhunt/shared/auth';
import { apiRequest } from '../../../lib/api-client';

export const postLogin = (body: LoginInput) => apiRequest<AuthAnswer>('POST', '/auth', body);
