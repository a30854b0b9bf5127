/** SPEC.md §3/§6: role is a bit mask. */
export const ROLE = {
  member: 1,
  hunter: 2,
  /** Operations staff (CONTRACT.md "Operations"): never granted through the public API. */
  admin: 4,
  /** Mask used by the account-level layouts: either role may enter. */
  any: 3,
} as const;

export type RoleMask = number;

export function hasRole(role: number | null | undefined, mask: number): boolean {
  return typeof role === 'number' && (role & mask) !== 0;
}

export const IDENTITY_STATUS = ['none', 'pending', 'approved', 'rejected'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUS)[number];
