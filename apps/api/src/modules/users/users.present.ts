/** Row → answer shape of CONTRACT.md. Secrets (hashes, ciphertexts, card tokens) never pass. */
import type { Hunter } from '@bountyhunt/shared/profiles';
import type { User } from '@bountyhunt/shared/users';
import type { IdentityStatus } from '@bountyhunt/shared/roles';
import type { HunterRow, UserRow } from '../../db/schema';
import { isoOrNull } from '../../lib/dates';

export function presentUser(row: UserRow): User {
  const hasAddress = row.street || row.city || row.state || row.zip;
  const hasBank = row.bankName || row.bankAccountType || row.bankRoutingNumber;
  return {
    userId: row.id,
    email: row.email,
    role: row.role,
    active: isoOrNull(row.active),
    handle: row.handle,
    firstName: row.firstName,
    lastName: row.lastName,
    taxAddress: hasAddress
      ? {
          street: row.street ?? '',
          city: row.city ?? '',
          state: row.state ?? '',
          zip: row.zip ?? '',
        }
      : null,
    ssnLastFour: row.ssnLastFour,
    bankAccountLastFour: row.bankAccountLastFour,
    bankInfo: hasBank
      ? {
          name: row.bankName,
          accountType: row.bankAccountType,
          routingNumber: row.bankRoutingNumber,
        }
      : null,
    creditCardLastFour: row.cardLastFour,
    silver: row.silver,
    votes: row.votes,
    membership: row.membership,
    identityStatus: row.identityStatus as IdentityStatus,
    identityReason: row.identityStatus === 'rejected' ? row.identityReason : null,
  };
}

export function presentHunter(row: HunterRow, handle: string | null): Hunter {
  return {
    hunterId: row.id,
    userId: row.userId,
    handle,
    stagename: row.stagename,
    bio: row.bio,
    banner: row.banner,
    picture: row.picture,
  };
}
