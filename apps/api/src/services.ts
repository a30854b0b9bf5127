/** Builds every service once per app; routes reach them through app.services. */
import type { ServiceContext } from './context';
import { AuthService } from './modules/auth/auth.service';
import { UsersService } from './modules/users/users.service';

export function createServices(ctx: ServiceContext) {
  return {
    auth: new AuthService(ctx),
    users: new UsersService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
