/**
 * Scheduled jobs run once across the two instances. Both instances run pg-boss with cron
 * schedules; each occurrence of a schedule becomes one job (a singleton per schedule and
 * minute), claimed by one worker. Shown on the job table, on the instances' logs ("job done"
 * with the job's id, written by the instance that ran it), and on what a job does: a round that
 * ends is closed once, with one decision, one prize in the ledger and one notification each.
 * The rare schedules (renewals every 15 minutes, the weekly payout run, the yearly 1099s) are
 * made to fire every minute for the test by editing their rows in pgboss.schedule, which each
 * cron pass reads.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { sql } from '../support/db';
import { activeMember, creator } from '../support/session';
import { gradientPng, upload } from '../support/profiles';
import { instanceLog } from './support';

const RARE = ['billing.renew-memberships', 'payouts.weekly-run', 'payouts.tax-forms'];

/** Job ids each instance logged as done, by job name. */
function doneBy(n: 1 | 2, name: string): string[] {
  return instanceLog(n)
    .filter((l) => l.msg === 'job done' && l.job === name)
    .map((l) => String(l.id));
}

async function completedJobs(name: string, since: Date) {
  return sql<{ id: string; state: string }>(
    `select id::text, state::text from pgboss.job
      where name = $1 and created_on >= $2 order by created_on`,
    [name, since],
  );
}

/**
 * The occurrences pg-boss's cron pass filed for a schedule: rows of its send-it queue, each a
 * singleton on (schedule, minute); each is then forwarded to the schedule's queue as one job.
 */
async function occurrences(name: string) {
  return sql<{ slot: string; state: string }>(
    `select singleton_on::text as slot, state::text from pgboss.job
      where name = '__pgboss__send-it' and singleton_key like $1`,
    [`${name}\\_\\_%`],
  );
}

describe('scheduled jobs on two instances', () => {
  it('each occurrence runs once: a round closes once; renewals, payouts and 1099s fire once', async () => {
    const names = (await sql<{ name: string }>('select name from pgboss.schedule')).map(
      (r) => r.name,
    );
    expect(names).toEqual(expect.arrayContaining([...RARE, 'bounties.close-rounds']));
    const rare = RARE;
    const since = new Date(Date.now() - 1000);
    await sql(`update pgboss.schedule set cron = '* * * * *' where name = any($1)`, [rare]);

    // A bounty with a prize and one claim, its only round made to end now.
    const poster = await activeMember({ silver: 100 });
    const hunter = await creator();
    const posted = await api<{ bountyId: number }>(
      'POST',
      '/bounty',
      { title: 'Cluster round', seconds: 86_400, amount: 10 },
      poster.token,
    );
    expect(posted.status).toBe(200);
    const { bountyId } = posted.data;
    const key = await upload(hunter.token, gradientPng('cluster-claim', 600, 600));
    const claim = await api<{ claimId: number }>(
      'POST',
      '/claim',
      { bountyId, roundId: 1, media: key, multiple: true },
      hunter.token,
    );
    expect(claim.status).toBe(200);
    await sql(`update rounds set end_date = now() - interval '1 second' where bounty_id = $1`, [
      bountyId,
    ]);

    // Within two minutes and a cron pass, everything has run.
    await expect
      .poll(
        async () => {
          const [b] = await sql<{ status: string }>('select status from bounties where id = $1', [
            bountyId,
          ]);
          const pending = [];
          // Two successive minutes of each: two occurrences, two chances to run twice.
          for (const name of rare) {
            const done = (await completedJobs(name, since)).filter((j) => j.state === 'completed');
            if (done.length < 2) pending.push(name);
          }
          return b?.status === 'decided' && pending.length === 0;
        },
        { timeout: 150_000, interval: 2_000 },
      )
      .toBe(true);

    // The round's effects, once each.
    const [bounty] = await sql<{ winner_claim_id: number }>(
      'select winner_claim_id from bounties where id = $1',
      [bountyId],
    );
    expect(bounty!.winner_claim_id).toBe(claim.data.claimId);
    const notes = await sql<{ user_id: number; type: string }>(
      `select user_id, type from notifications where link like $1 or link like $2 order by id`,
      [`/bounty/${bountyId}`, `/claim/${claim.data.claimId}`],
    );
    const count = (type: string) => notes.filter((n) => n.type === type).length;
    expect(count('round_ended')).toBe(1);
    expect(count('bounty_decided')).toBe(1);
    expect(count('claim_won')).toBe(1);
    const prizes = await sql(
      `select id from hunter_earnings where bounty_id = $1 and source = 'prize'`,
      [bountyId],
    );
    expect(prizes).toHaveLength(1);

    // Every occurrence of every schedule is one job, done by one instance (over the whole
    // run: the database is this run's).
    await sql(`update pgboss.schedule set cron = '0 0 1 1 *' where name = any($1)`, [rare]);
    const epoch = new Date(0);
    for (const name of [...rare, 'bounties.close-rounds', 'bounties.settle-earnings']) {
      const slots = (await occurrences(name)).map((o) => o.slot);
      expect(slots.length, name).toBeGreaterThan(0);
      expect(new Set(slots).size, `${name}: one occurrence per minute`).toBe(slots.length);
      // Forwarding is asynchronous: wait until every forwarded occurrence has its job.
      await expect
        .poll(async () => {
          const sent = (await occurrences(name)).filter((o) => o.state === 'completed').length;
          const jobs = (await completedJobs(name, epoch)).length;
          return jobs === sent || jobs === sent + 1 ? 'one job each' : `${jobs} jobs, ${sent} sent`;
        })
        .toBe('one job each');
      const one = doneBy(1, name);
      const two = doneBy(2, name);
      for (const job of await completedJobs(name, epoch)) {
        if (job.state !== 'completed') continue;
        const ranOn = Number(one.includes(job.id)) + Number(two.includes(job.id));
        expect(ranOn, `${name} job ${job.id} ran on one instance`).toBe(1);
      }
    }
  }, 180_000);
});
