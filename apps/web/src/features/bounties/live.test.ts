import type { Bounty, Claim } from '@bountyhunt/shared/bounties';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../lib/api-client';
import { bountyKeys } from './api/keys';
import { applyTally, patchBountyTally } from './live';

const ok = <T>(data: T): ApiResult<T> => ({ status: 200, data, message: '' });

function claim(claimId: number, votes: number): Claim {
  return {
    claimId,
    bountyId: 1,
    bounty: { bountyId: 1, title: 'T' },
    roundId: 1,
    round: { roundId: 1, endDate: null },
    hunter: { hunterId: 9, handle: 'h', stagename: null, picture: null },
    media: 'i-x',
    votes,
    created: '2026-01-01T00:00:00Z',
  };
}

const bounty: Bounty = {
  bountyId: 1,
  id: 1,
  title: 'T',
  amount: 0,
  mediaType: 1,
  userId: 2,
  created: '2026-01-01T00:00:00Z',
  roundCount: 1,
  status: 'open',
  winnerClaimId: null,
  rounds: [{ roundId: 1, endDate: null, claims: [claim(10, 5), claim(11, 3), claim(12, 0)] }],
};

describe('patchBountyTally', () => {
  it('moves the votes and puts the round in rank order', () => {
    const next = patchBountyTally(bounty, {
      type: 'tally',
      bountyId: 1,
      roundId: 1,
      claims: [
        { claimId: 12, votes: 9, rank: 1 },
        { claimId: 10, votes: 5, rank: 2 },
        { claimId: 11, votes: 3, rank: 3 },
      ],
    });
    expect(next.rounds[0]!.claims.map((c) => [c.claimId, c.votes])).toEqual([
      [12, 9],
      [10, 5],
      [11, 3],
    ]);
  });

  it('leaves another bounty alone', () => {
    const other = { ...bounty, bountyId: 2 };
    expect(patchBountyTally(other, { type: 'tally', bountyId: 1, roundId: 1, claims: [] })).toBe(
      other,
    );
  });
});

describe('applyTally', () => {
  it('patches the cached bounty, claim and rank on a tally', () => {
    const client = new QueryClient();
    client.setQueryData(bountyKeys.bounty('1'), ok(bounty));
    client.setQueryData(bountyKeys.claim('11'), ok(claim(11, 3)));
    client.setQueryData(bountyKeys.claimRank('11'), ok(2));
    applyTally(client, {
      type: 'tally',
      bountyId: 1,
      roundId: 1,
      claims: [
        { claimId: 11, votes: 8, rank: 1 },
        { claimId: 10, votes: 5, rank: 2 },
      ],
    });
    const b = client.getQueryData<ApiResult<Bounty>>(bountyKeys.bounty('1'))!;
    expect(b.data.rounds[0]!.claims.map((c) => c.claimId)).toEqual([11, 10, 12]);
    expect(client.getQueryData<ApiResult<Claim>>(bountyKeys.claim('11'))!.data.votes).toBe(8);
    expect(client.getQueryData<ApiResult<number>>(bountyKeys.claimRank('11'))!.data).toBe(1);
    // Nothing cached for claim 10: nothing is made up.
    expect(client.getQueryData(bountyKeys.claim('10'))).toBeUndefined();
  });
});
