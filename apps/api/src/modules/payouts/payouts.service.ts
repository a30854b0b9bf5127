/**
 * Creators get paid (issue 18): a hunter's earnings page, the hold that turns pending earnings
 * into available ones, the weekly payout run with its NACHA PPD credit file, returns, and the
 * yearly Form 1099-NEC. Money moves only through the ledger (ledger.service.ts), each movement
 * in the same database transaction as the rows it concerns.
 *
 * A run pays exactly once: a scheduled run takes its week's unique batch row first (a second
 * instance or retry finds it taken and stops), and every run locks the hunters' available
 * balance rows before it reads them, so a concurrent run waits and then sees them at zero.
 */
import { CronExpressionParser } from 'cron-parser';
import type { AuditQuery } from '@bountyhunt/shared/admin';
import { ADMIN_PAGE } from '@bountyhunt/shared/admin';
import {
  formatCents,
  MICROS_PER_CENT,
  necThresholdCents,
  PAYOUT_MSG,
  PAYOUT_RETURN_REASONS,
  type AdminTaxFormsAnswer,
  type EarningsAnswer,
  type PayoutBatchDetailAnswer,
  type PayoutBatchItem,
  type PayoutItem,
  type PayoutPreviewAnswer,
  type PayoutReturnCode,
  type TaxFormsAnswer,
} from '@bountyhunt/shared/payouts';
import { z } from 'zod';
import type { Actor, ServiceContext } from '../../context';
import { badRequest, conflict, notFound } from '../../errors';
import { iso, isoOrNull } from '../../lib/dates';
import { decodeCursor, pageLimit, takePage, type Page } from '../../lib/paging';
import { payoutReturnedMail, payoutSentMail } from '../../mail/templates';
import type { AccountService, PayoutProfile } from '../account/account.service';
import type { AuditService } from '../admin/audit.service';
import { postLedger, type LedgerLine } from './ledger.service';
import { writeNachaFile, type NachaEntry } from './nacha';
import type { NotificationsService } from '../notifications/notifications.service';
import type { PayoutProvider } from './payout-provider';
import * as repo from './payouts.repository';
import { render1099Nec } from './tax-form';

const DAY_MS = 86_400_000;
const RELEASE_BATCH = 5000;
const CHART_WEEKS = 12;

/** Monday 00:00 UTC of the week of `d`. */
export function weekStart(d: Date): Date {
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day));
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const centsOf = (micros: number) => Math.floor(micros / MICROS_PER_CENT);

/** The next business day (the NACHA effective entry date). */
function nextBusinessDay(d: Date): Date {
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
  while (next.getUTCDay() === 0 || next.getUTCDay() === 6) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

class NothingToPay extends Error {}

function presentPayout(r: repo.PayoutRow): PayoutItem {
  return {
    payoutId: r.id,
    created: iso(r.created_at),
    amountCents: r.amount_cents,
    status: r.status,
    accountLastFour: r.account_last_four,
    returned: isoOrNull(r.returned_at),
    returnReason: r.return_code
      ? `${r.return_code}: ${PAYOUT_RETURN_REASONS[r.return_code as PayoutReturnCode] ?? 'Returned'}`
      : null,
  };
}

function presentBatch(r: repo.BatchRow): PayoutBatchItem {
  return {
    batchId: r.id,
    created: iso(r.created_at),
    kind: r.kind,
    weekOf: r.week_of,
    count: r.count,
    totalCents: Number(r.total_cents),
    returnedCents: Number(r.returned_cents),
    fileName: r.file_name,
  };
}

const batchCursor = z.object({ id: z.number().int().positive().max(2_147_483_647) });
const invalidCursor = () => badRequest('That page of payout runs does not exist.');

function csvCell(value: string | number): string {
  const s = String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export class PayoutsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: {
      account: AccountService;
      audit: AuditService;
      provider: PayoutProvider;
      notifications: NotificationsService;
    },
  ) {}

  private now(): Date {
    return this.ctx.clock.now();
  }

  private minimumMicros(): number {
    return this.ctx.config.PAYOUT_MINIMUM_CENTS * MICROS_PER_CENT;
  }

  /** When the weekly run is due next (PAYOUT_SCHEDULE, UTC). */
  nextRunAt(from: Date = this.now()): Date {
    return CronExpressionParser.parse(this.ctx.config.PAYOUT_SCHEDULE, {
      currentDate: from,
      tz: 'UTC',
    })
      .next()
      .toDate();
  }

  private async mail(message: Parameters<ServiceContext['mailer']['send']>[0]): Promise<void> {
    try {
      await this.ctx.mailer.send(message);
    } catch (err) {
      this.ctx.log.warn({ err: { message: (err as Error).message } }, 'payout mail failed');
    }
  }

  private link(path: string): string {
    return `${this.ctx.config.PUBLIC_WEB_URL.replace(/\/$/, '')}${path}`;
  }

  // ---- hunters -------------------------------------------------------------------------

  /** GET /user/earnings */
  async earnings(actor: Actor): Promise<EarningsAnswer> {
    const db = this.ctx.db;
    const now = this.now();
    const firstWeek = new Date(weekStart(now).getTime() - (CHART_WEEKS - 1) * 7 * DAY_MS);
    const [balances, paidCents, payouts, weekly, profiles] = await Promise.all([
      repo.hunterBalances(db, actor.userId),
      repo.paidCentsOf(db, actor.userId),
      repo.payoutsOfUser(db, actor.userId, 100),
      repo.weeklyEarnings(db, actor.userId, firstWeek),
      this.deps.account.payoutProfiles(db, [actor.userId]),
    ]);
    const byWeek = new Map(weekly.map((w) => [w.week, Number(w.micros)]));
    return {
      pendingCents: centsOf(balances.pending),
      availableCents: centsOf(balances.available),
      paidCents,
      payouts: payouts.map(presentPayout),
      weeks: Array.from({ length: CHART_WEEKS }, (_, i) => {
        const start = ymd(new Date(firstWeek.getTime() + i * 7 * DAY_MS));
        return { weekStart: start, earnedCents: centsOf(byWeek.get(start) ?? 0) };
      }),
      missing: profiles.get(actor.userId)?.missing ?? [],
      minimumCents: this.ctx.config.PAYOUT_MINIMUM_CENTS,
      holdDays: this.ctx.config.EARNINGS_HOLD_DAYS,
      nextRunAt: iso(this.nextRunAt(now)),
    };
  }

  /** GET /user/tax-forms */
  async taxForms(actor: Actor): Promise<TaxFormsAnswer> {
    const rows = await repo.taxFormsOfUser(this.ctx.db, actor.userId);
    return {
      forms: rows.map((r) => ({
        year: r.year,
        amountCents: Number(r.amount_cents),
        created: iso(r.created_at),
      })),
    };
  }

  /** GET /user/tax-forms/:year/pdf: Copy B, drawn from the form's row. */
  async taxFormPdf(actor: Actor, year: number): Promise<Uint8Array> {
    const form = await repo.findTaxForm(this.ctx.db, actor.userId, year);
    if (!form) throw notFound(PAYOUT_MSG.taxFormNotFound, 'TAX_FORM_NOT_FOUND');
    const c = this.ctx.config;
    return render1099Nec({
      year: form.year,
      payer: {
        name: c.PAYER_NAME,
        street: c.PAYER_STREET,
        cityStateZip: c.PAYER_CITY_STATE_ZIP,
        phone: c.PAYER_PHONE,
        tin: c.PAYER_TIN,
      },
      recipient: {
        name: form.legal_name,
        street: form.street,
        cityStateZip: form.city_state_zip,
        tinLastFour: form.tin_last_four,
      },
      accountNumber: `BH-${form.user_id}`,
      nonemployeeCompensationCents: Number(form.amount_cents),
    });
  }

  // ---- the hold ------------------------------------------------------------------------

  /** Moves earnings older than EARNINGS_HOLD_DAYS from pending to available (hourly job). */
  async releaseDue(): Promise<{ earnings: number; micros: number }> {
    const now = this.now();
    const cutoff = new Date(now.getTime() - this.ctx.config.EARNINGS_HOLD_DAYS * DAY_MS);
    let earnings = 0;
    let micros = 0;
    for (;;) {
      const rows = await this.ctx.db.transaction(async (tx) => {
        const due = await repo.releaseDueEarnings(tx, cutoff, now, RELEASE_BATCH);
        const lines: LedgerLine[] = due.flatMap((d) => [
          { code: 'hunter_pending' as const, userId: d.user_id, amount: Number(d.micros) },
          { code: 'hunter_available' as const, userId: d.user_id, amount: -Number(d.micros) },
        ]);
        await postLedger(tx, { kind: 'release', at: now, lines });
        return due;
      });
      const n = rows.reduce((a, r) => a + r.n, 0);
      earnings += n;
      micros += rows.reduce((a, r) => a + Number(r.micros), 0);
      if (n < RELEASE_BATCH) break;
    }
    if (earnings > 0) this.ctx.log.info({ earnings, micros }, 'earnings released');
    return { earnings, micros };
  }

  // ---- the run -------------------------------------------------------------------------

  private async candidates(lock: boolean, db: Parameters<typeof repo.availableBalances>[0]) {
    const rows = await repo.availableBalances(db, { atLeastMicros: 1, lock });
    const profiles = await this.deps.account.payoutProfiles(
      db,
      rows.map((r) => r.user_id),
    );
    const min = this.minimumMicros();
    return rows.map((r) => {
      const micros = Number(r.micros);
      const profile = profiles.get(r.user_id);
      const reasons: ('minimum' | PayoutProfile['missing'][number])[] = [
        ...(profile?.missing ?? ['identity' as const]),
      ];
      if (micros < min) reasons.push('minimum');
      return { userId: r.user_id, micros, profile, reasons };
    });
  }

  /** GET /admin/payouts/preview */
  async preview(): Promise<PayoutPreviewAnswer> {
    const all = await this.candidates(false, this.ctx.db);
    const payees = all.filter((c) => c.reasons.length === 0 && c.profile);
    return {
      runAt: iso(this.nextRunAt()),
      minimumCents: this.ctx.config.PAYOUT_MINIMUM_CENTS,
      count: payees.length,
      totalCents: payees.reduce((a, p) => a + centsOf(p.micros), 0),
      payees: payees.map((p) => ({
        userId: p.userId,
        handle: p.profile!.handle,
        legalName: p.profile!.legalName ?? '',
        amountCents: centsOf(p.micros),
        accountLastFour: p.profile!.bank?.lastFour ?? '',
      })),
      held: all
        .filter((c) => c.reasons.length > 0)
        .map((c) => ({
          userId: c.userId,
          handle: c.profile?.handle ?? null,
          availableCents: centsOf(c.micros),
          reasons: c.reasons,
        })),
    };
  }

  /**
   * One payout run: a payout per qualifying hunter, their available balances debited, one
   * NACHA file for the batch delivered through the provider, all in one transaction (the file
   * is taken back if the transaction does not commit). Null when there was nothing to do: no
   * qualifying hunter, or (scheduled) this week's run already happened.
   */
  private async run(opts: {
    kind: 'scheduled' | 'manual';
    actor: Actor | null;
    ip: string | null;
  }): Promise<PayoutBatchItem | null> {
    const now = this.now();
    let sentFile: string | null = null;
    const paid: { userId: number; cents: number; lastFour: string }[] = [];
    try {
      const batchId = await this.ctx.db.transaction(async (tx) => {
        const id = await repo.insertBatch(tx, {
          kind: opts.kind,
          weekOf: opts.kind === 'scheduled' ? ymd(weekStart(now)) : null,
          createdBy: opts.actor?.userId ?? null,
          at: now,
        });
        if (id === null) return null;
        const payees = (await this.candidates(true, tx)).filter(
          (c) => c.reasons.length === 0 && c.profile?.bank && c.profile.legalName,
        );
        if (payees.length === 0) throw new NothingToPay();
        const rows = payees.map((p) => ({
          userId: p.userId,
          amountCents: centsOf(p.micros),
          legalName: p.profile!.legalName!,
          routingNumber: p.profile!.bank!.routingNumber,
          accountType: p.profile!.bank!.accountType,
          accountLastFour: p.profile!.bank!.lastFour,
        }));
        const inserted = await repo.insertPayouts(tx, id, now, rows);
        const payoutIdOf = new Map(inserted.map((r) => [r.user_id, r.id]));
        const totalCents = rows.reduce((a, r) => a + r.amountCents, 0);
        await postLedger(tx, {
          kind: 'payout',
          refType: 'payout_batch',
          refId: id,
          at: now,
          lines: [
            ...rows.map((r) => ({
              code: 'hunter_available' as const,
              userId: r.userId,
              amount: r.amountCents * MICROS_PER_CENT,
            })),
            { code: 'paid_out', amount: -totalCents * MICROS_PER_CENT },
          ],
        });
        const entries: NachaEntry[] = payees.map((p, i) => ({
          routingNumber: p.profile!.bank!.routingNumber,
          // Decrypted here, for the file only.
          accountNumber: this.deps.account.decryptBankAccount(p.profile!.bank!.accountEnc),
          accountType: p.profile!.bank!.accountType,
          amountCents: rows[i]!.amountCents,
          individualId: String(payoutIdOf.get(p.userId)),
          individualName: p.profile!.legalName!,
        }));
        const c = this.ctx.config;
        const file = writeNachaFile({
          origin: {
            immediateDestination: c.PAYOUT_ODFI_ROUTING,
            immediateDestinationName: c.PAYOUT_ODFI_NAME,
            immediateOrigin: `1${c.PAYOUT_COMPANY_ID.slice(1)}`,
            immediateOriginName: c.PAYOUT_COMPANY_NAME,
            companyName: c.PAYOUT_COMPANY_NAME,
            companyId: c.PAYOUT_COMPANY_ID,
            companyEntryDescription: 'PAYOUT',
            originatingDfi: c.PAYOUT_ODFI_ROUTING.slice(0, 8),
          },
          fileIdModifier: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'[id % 36]!,
          created: now,
          effectiveDate: nextBusinessDay(now),
          batchNumber: id,
          entries,
        });
        if (file.totalCreditCents !== totalCents)
          throw new Error('the NACHA file total differs from the payouts');
        const fileName = `payouts-${String(id).padStart(6, '0')}-${ymd(now).replace(/-/g, '')}.ach`;
        await this.deps.provider.send({ name: fileName, text: file.text });
        sentFile = fileName;
        await repo.finishBatch(tx, id, { fileName, count: rows.length, totalCents });
        if (opts.actor)
          await this.deps.audit.record(
            {
              actorId: opts.actor.userId,
              action: 'payout.run',
              targetType: 'payout_batch',
              targetId: id,
              after: { count: rows.length, totalCents, fileName },
              ip: opts.ip,
            },
            tx,
          );
        for (const p of payees)
          paid.push({
            userId: p.userId,
            cents: centsOf(p.micros),
            lastFour: p.profile!.bank!.lastFour,
          });
        return id;
      });
      if (batchId === null) return null;
      await this.deps.notifications.notify(
        paid.map((p) => ({
          userId: p.userId,
          type: 'payout_sent' as const,
          title: `Your payout of ${formatCents(p.cents)} is on its way`,
          body: `We sent ${formatCents(p.cents)} by direct deposit to your account ending in ${p.lastFour}.`,
          link: '/account/earnings',
          mail: (to: string) =>
            payoutSentMail(to, formatCents(p.cents), p.lastFour, this.link('/account/earnings')),
        })),
      );
      const batch = await repo.findBatch(this.ctx.db, batchId);
      this.ctx.log.info(
        { batchId, count: batch?.count, totalCents: batch?.total_cents },
        'payout run sent',
      );
      return batch ? presentBatch(batch) : null;
    } catch (err) {
      if (sentFile) await this.deps.provider.discard(sentFile).catch(() => undefined);
      if (err instanceof NothingToPay) return null;
      throw err;
    }
  }

  /** The weekly job: releases what cleared, then pays (once per week across instances). */
  async runScheduled(): Promise<PayoutBatchItem | null> {
    await this.releaseDue();
    return this.run({ kind: 'scheduled', actor: null, ip: null });
  }

  /** POST /admin/payouts/run */
  async runNow(actor: Actor, ip: string | null): Promise<PayoutBatchItem> {
    await this.releaseDue();
    const batch = await this.run({ kind: 'manual', actor, ip });
    if (!batch) throw conflict(PAYOUT_MSG.nothingToPay, 'NOTHING_TO_PAY');
    return batch;
  }

  /** GET /admin/payouts/batches */
  async batches(query: Pick<AuditQuery, 'cursor' | 'limit'>): Promise<Page<PayoutBatchItem>> {
    const limit = pageLimit(query.limit, ADMIN_PAGE);
    const after = decodeCursor(query.cursor, batchCursor, invalidCursor);
    const rows = await repo.listBatches(this.ctx.db, after?.id, limit + 1);
    const page = takePage(rows, limit, (last) => ({ id: last.id }));
    return { next: page.next, items: page.rows.map(presentBatch) };
  }

  /** GET /admin/payouts/batches/:id */
  async batch(id: number): Promise<PayoutBatchDetailAnswer> {
    const row = await repo.findBatch(this.ctx.db, id);
    if (!row) throw notFound(PAYOUT_MSG.batchNotFound, 'PAYOUT_BATCH_NOT_FOUND');
    const payouts = await repo.payoutsOfBatch(this.ctx.db, id);
    const profiles = await this.deps.account.payoutProfiles(
      this.ctx.db,
      payouts.map((p) => p.user_id),
    );
    return {
      ...presentBatch(row),
      payouts: payouts.map((p) => ({
        ...presentPayout(p),
        userId: p.user_id,
        handle: profiles.get(p.user_id)?.handle ?? null,
        legalName: p.legal_name,
      })),
    };
  }

  /** GET /admin/payouts/batches/:id/file: the NACHA file as sent (audited: it names accounts). */
  async batchFile(
    actor: Actor,
    id: number,
    ip: string | null,
  ): Promise<{ name: string; text: string }> {
    const row = await repo.findBatch(this.ctx.db, id);
    if (!row) throw notFound(PAYOUT_MSG.batchNotFound, 'PAYOUT_BATCH_NOT_FOUND');
    const text = await this.deps.provider.read(row.file_name);
    if (text === null) throw notFound('The file of this payout run is missing.', 'FILE_MISSING');
    await this.deps.audit.record({
      actorId: actor.userId,
      action: 'payout.file_download',
      targetType: 'payout_batch',
      targetId: id,
      after: { fileName: row.file_name },
      ip,
    });
    return { name: row.file_name, text };
  }

  /**
   * POST /admin/payouts/:id/return (or a bank's return file): the payout is marked returned and
   * its amount is available again; the hunter is mailed to check the bank details.
   */
  async markReturned(
    actor: Actor | null,
    payoutId: number,
    code: PayoutReturnCode,
    ip: string | null,
  ): Promise<PayoutItem> {
    const now = this.now();
    const payout = await this.ctx.db.transaction(async (tx) => {
      const p = await repo.lockPayout(tx, payoutId);
      if (!p) throw notFound(PAYOUT_MSG.payoutNotFound, 'PAYOUT_NOT_FOUND');
      if (p.status !== 'sent') throw conflict(PAYOUT_MSG.notSent, 'PAYOUT_NOT_SENT');
      await repo.setPayoutReturned(tx, p.id, code, now);
      const micros = p.amount_cents * MICROS_PER_CENT;
      await postLedger(tx, {
        kind: 'payout_return',
        refType: 'payout',
        refId: p.id,
        at: now,
        lines: [
          { code: 'paid_out', amount: micros },
          { code: 'hunter_available', userId: p.user_id, amount: -micros },
        ],
      });
      await this.deps.audit.record(
        {
          actorId: actor?.userId ?? null,
          action: 'payout.return',
          targetType: 'payout',
          targetId: p.id,
          before: { status: 'sent' },
          after: { status: 'returned', code, amountCents: p.amount_cents, userId: p.user_id },
          ip,
        },
        tx,
      );
      return { ...p, status: 'returned' as const, return_code: code, returned_at: now };
    });
    const amount = formatCents(payout.amount_cents);
    await this.deps.notifications.notify({
      userId: payout.user_id,
      type: 'payout_returned',
      title: 'Your payout was returned by your bank',
      body: `Your bank returned ${amount} (${PAYOUT_RETURN_REASONS[code]}). Please check your bank details; it goes out again with the next weekly payout.`,
      link: '/account/bank',
      mail: (to: string) =>
        payoutReturnedMail(to, amount, PAYOUT_RETURN_REASONS[code], this.link('/account/bank')),
    });
    return presentPayout(payout);
  }

  // ---- 1099-NEC ------------------------------------------------------------------------

  /**
   * Makes (or remakes) the year's forms: every hunter paid at least the year's threshold, with
   * their legal name, address and SSN's last four as they are now.
   */
  async generateTaxForms(
    year: number,
    actor: Actor | null = null,
    ip: string | null = null,
  ): Promise<{ year: number; count: number }> {
    const now = this.now();
    if (year < 2020 || year >= now.getUTCFullYear() + 1)
      throw badRequest(PAYOUT_MSG.yearInvalid, 'BAD_YEAR');
    const count = await this.ctx.db.transaction(async (tx) => {
      const paid = await repo.paidInYear(tx, year, necThresholdCents(year));
      const profiles = await this.deps.account.payoutProfiles(
        tx,
        paid.map((p) => p.user_id),
      );
      let n = 0;
      for (const p of paid) {
        const profile = profiles.get(p.user_id);
        if (!profile) continue;
        await repo.upsertTaxForm(tx, {
          userId: p.user_id,
          year,
          amountCents: Number(p.cents),
          legalName: profile.legalName ?? profile.handle ?? profile.email,
          street: profile.street ?? '',
          cityStateZip: profile.cityStateZip ?? '',
          tinLastFour: profile.ssnLastFour ?? '',
          at: now,
        });
        n += 1;
      }
      if (actor)
        await this.deps.audit.record(
          {
            actorId: actor.userId,
            action: 'tax.generate',
            targetType: 'tax_year',
            targetId: year,
            after: { count: n },
            ip,
          },
          tx,
        );
      return n;
    });
    this.ctx.log.info({ year, count }, '1099-NEC forms generated');
    return { year, count };
  }

  /** The January job: last year's forms. */
  generateLastYear(): Promise<{ year: number; count: number }> {
    return this.generateTaxForms(this.now().getUTCFullYear() - 1);
  }

  /** GET /admin/tax-forms/:year */
  async adminTaxForms(year: number): Promise<AdminTaxFormsAnswer> {
    const rows = await repo.taxFormsOfYear(this.ctx.db, year);
    const profiles = await this.deps.account.payoutProfiles(
      this.ctx.db,
      rows.map((r) => r.user_id),
    );
    return {
      year,
      thresholdCents: necThresholdCents(year),
      forms: rows.map((r) => ({
        userId: r.user_id,
        handle: profiles.get(r.user_id)?.handle ?? null,
        legalName: r.legal_name,
        amountCents: Number(r.amount_cents),
        created: iso(r.created_at),
      })),
    };
  }

  /**
   * GET /admin/tax-forms/:year/csv: one line per form for the e-filing service. The TIN is
   * masked like on Copy B (the full SSN never leaves the server); the e-file step that needs it
   * matches on the recipient's account number.
   */
  async taxCsv(actor: Actor, year: number, ip: string | null): Promise<string> {
    const rows = await repo.taxFormsOfYear(this.ctx.db, year);
    const c = this.ctx.config;
    const header = [
      'tax_year',
      'form',
      'payer_name',
      'payer_tin',
      'account_number',
      'recipient_name',
      'recipient_tin',
      'street',
      'city_state_zip',
      'box1_nonemployee_compensation',
    ];
    const lines = rows.map((r) =>
      [
        r.year,
        '1099-NEC',
        c.PAYER_NAME,
        c.PAYER_TIN,
        `BH-${r.user_id}`,
        r.legal_name,
        r.tin_last_four ? `***-**-${r.tin_last_four}` : '',
        r.street,
        r.city_state_zip,
        (Number(r.amount_cents) / 100).toFixed(2),
      ]
        .map(csvCell)
        .join(','),
    );
    await this.deps.audit.record({
      actorId: actor.userId,
      action: 'tax.csv_download',
      targetType: 'tax_year',
      targetId: year,
      after: { count: rows.length },
      ip,
    });
    return [header.join(','), ...lines].join('\r\n') + '\r\n';
  }
}
