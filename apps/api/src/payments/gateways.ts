/** Which gateway an app instance uses: the sandbox by default (CONTRACT.md), or an installed one. */
import type { ServiceContext } from '../context';
import type { PaymentGateway } from './gateway';
import { SandboxGateway } from './sandbox-gateway';

const overrides = new WeakMap<ServiceContext, PaymentGateway>();
const defaults = new WeakMap<ServiceContext, PaymentGateway>();

/** The gateway of this app instance: the sandbox unless one was installed with usePaymentGateway. */
export function paymentGatewayFor(ctx: ServiceContext): PaymentGateway {
  const chosen = overrides.get(ctx);
  if (chosen) return chosen;
  let gw = defaults.get(ctx);
  if (!gw) {
    gw = new SandboxGateway(ctx.clock);
    defaults.set(ctx, gw);
  }
  return gw;
}

/** Installs a gateway for one app instance (a real processor at start-up, or a test double). */
export function usePaymentGateway(ctx: ServiceContext, gateway: PaymentGateway): void {
  overrides.set(ctx, gateway);
}
