/** Rows → answer shapes of CONTRACT.md "Shapes of answers". */
import type { Bounty, Claim, Round } from '@bountyhunt/shared/bounties';
import type { ProfileClaim } from '@bountyhunt/shared/profiles';
import { iso, isoFromKey, isoOrNull } from '../../lib/dates';
import { hiddenMark } from '../../lib/visibility';
import type { ClaimView, RoundClaimView } from './claims.repository';
import type { SearchRow } from './search.repository';

/**
 * The one Claim presenter (the claim page, the bounty page, the feed and the profiles' claim
 * lists). `created` comes from the microsecond key when the query selected one (`ts`), which
 * is driver-independent, else from created_at.
 */
export function presentClaim(v: ClaimView & { ts?: string }, roundEnd?: string | null): Claim {
  return {
    claimId: v.id,
    bountyId: v.bounty_id,
    bounty: { bountyId: v.bounty_id, title: v.title },
    roundId: v.round_number,
    // roundEnd: the round's end already formatted, when the caller lists the round's claims.
    round: {
      roundId: v.round_number,
      endDate: roundEnd === undefined ? isoOrNull(v.end_date) : roundEnd,
    },
    hunter: {
      hunterId: v.hunter_id,
      handle: v.handle,
      stagename: v.stagename,
      picture: v.picture,
    },
    media: v.media,
    votes: v.votes,
    created: v.ts !== undefined ? isoFromKey(v.ts) : iso(v.created_at),
    ...hiddenMark(v.hidden),
  };
}

/** A claim with its rank in its round (GET /user/claims, the profile feed). */
export function presentRankedClaim(v: ClaimView & { ts?: string; rank: unknown }): ProfileClaim {
  return { ...presentClaim(v), rank: Number(v.rank) };
}

/** Groups lateral-join rows (one per claim, or one empty per claimless round) by bounty. */
export function groupRounds(rows: RoundClaimView[]): Map<number, Round[]> {
  const byBounty = new Map<number, Round[]>();
  for (const row of rows) {
    let list = byBounty.get(row.r_bounty_id);
    if (!list) byBounty.set(row.r_bounty_id, (list = []));
    let round = list[list.length - 1];
    if (!round || round.roundId !== row.r_number) {
      round = { roundId: row.r_number, endDate: isoOrNull(row.r_end_date), claims: [] };
      list.push(round);
    }
    // A claim's round is the row's round (the lateral join), so its end is formatted once.
    if (row.id != null) round.claims.push(presentClaim(row as ClaimView, round.endDate));
  }
  return byBounty;
}

export function presentBounty(b: SearchRow, rounds: Round[], hidden = false): Bounty {
  return {
    bountyId: b.id,
    id: b.id,
    title: b.title,
    amount: b.amount,
    mediaType: b.media_type,
    userId: b.user_id,
    created: iso(b.created_at),
    roundCount: b.round_count,
    status: b.status === 'decided' ? 'decided' : 'open',
    winnerClaimId: b.winner_claim_id,
    rounds,
    ...hiddenMark(hidden),
  };
}
