/**
 * The card form as PUT /user/card and POST /user/membership take it (the shared `cardSchema`'s
 * fields): number without spaces, month and year as typed.
 */
import type { CardInput } from '@bountyhunt/shared/billing';

export type CardBody = Record<keyof CardInput, string>;
