/** POST /user: a new account (406: the e-mail is taken). */
import type { RegisterInput } from '@bountyhunt/shared/auth';
import { apiRequest } from '../../../lib/api-client';

export const register = (body: RegisterInput) => apiRequest('POST', '/user', body);
