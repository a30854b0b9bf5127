/**
 * /admin/users/:userId: who the user is (role, membership, silver, identity), whether their
 * tax and bank details are complete (masked as the settings page shows them), their sessions,
 * silver history, recent votes, claims and posts; and the actions: suspend or unsuspend (with a
 * confirmation and a reason), grant silver with a reason, send the password reset mail again.
 */
import { API_MSG } from '@bountyhunt/shared/api';
import {
  ADMIN_REASON_MAX,
  ADMIN_USERS_MSG,
  grantSilverSchema,
  SILVER_GRANT_MAX,
  type AdminUserDetail,
  type AdminUserPayment,
  type GrantSilverInput,
  type GrantSilverValues,
} from '@bountyhunt/shared/admin-users';
import { SILVER_REASON_LABEL } from '@bountyhunt/shared/billing';
import { formatCount } from '@bountyhunt/shared/format';
import { formatCents } from '@bountyhunt/shared/payouts';
import { zodResolver } from '@hookform/resolvers/zod';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner';
import { useFeedback } from '../../../lib/feedback';
import {
  useAdminUser,
  useGrantSilver,
  useRefund,
  useResendMail,
  useSuspendUser,
  useUnsuspendUser,
} from '../api/admin-users';
import { formatDateTime } from '../components/format';
import { membershipLabel, roleNames, StatusChip } from '../components/user-labels';

const REQUIRED = 'Required';

function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby={id}>
      <Typography variant="h2" id={id} sx={{ fontSize: '1.1rem', mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Label / value pairs. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 0.75,
        m: 0,
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Complete({ ok }: { ok: boolean }) {
  return ok ? (
    <Chip size="small" color="success" variant="outlined" label="Complete" />
  ) : (
    <Chip size="small" color="warning" variant="outlined" label="Incomplete" />
  );
}

/** A small list table; `empty` when there are no rows. */
function MiniTable<T>({
  label,
  head,
  rows,
  cells,
  empty,
}: {
  label: string;
  head: string[];
  rows: T[];
  cells: (row: T) => ReactNode[];
  empty: string;
}) {
  if (!rows.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {empty}
      </Typography>
    );
  return (
    // Focusable so a keyboard can scroll a table wider than its card.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`${label} (scrolls)`}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h} sx={{ fontWeight: 700 }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => (
            <TableRow key={i}>
              {cells(row).map((c, j) => (
                <TableCell key={j}>{c}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

const when = (iso: string) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(iso)}</Box>;

/**
 * A confirmation that needs a reason (kept in the audit log): `act` answers an error message,
 * or null when it went through (the dialog then closes).
 */
function ReasonDialog({
  id,
  title,
  text,
  confirmLabel,
  pending,
  act,
  onClose,
}: {
  id: string;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  pending: boolean;
  act: (reason: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  async function confirm() {
    if (!reason.trim()) return setError('Please give a reason.');
    setError('');
    const failed = await act(reason.trim());
    if (failed) return setError(failed);
    onClose();
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
        <TextField
          label="Reason (kept in the audit log)"
          multiline
          minRows={2}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError('');
          }}
          error={!!error}
          helperText={error || ' '}
          slotProps={{ htmlInput: { maxLength: ADMIN_REASON_MAX } }}
          autoFocus
        />
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={() => void confirm()} loading={pending}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function SuspendDialog({ user, onClose }: { user: AdminUserDetail; onClose: () => void }) {
  const suspend = useSuspendUser(user.userId);
  const { notify } = useFeedback();
  return (
    <ReasonDialog
      id="suspend-title"
      title={`Suspend ${user.email}?`}
      text="They are signed out everywhere at once, cannot sign in (“Your account is suspended. Contact support.”), and their profile and content are hidden until the suspension is lifted."
      confirmLabel="Suspend account"
      pending={suspend.isPending}
      onClose={onClose}
      act={async (reason) => {
        const res = await suspend.mutateAsync({ reason });
        if (res.status !== 204) return res.message || API_MSG.formOther(res.status);
        notify(ADMIN_USERS_MSG.suspended, 'success');
        return null;
      }}
    />
  );
}

function UnsuspendDialog({ user, onClose }: { user: AdminUserDetail; onClose: () => void }) {
  const unsuspend = useUnsuspendUser(user.userId);
  const { notify } = useFeedback();
  const [error, setError] = useState('');
  async function confirm() {
    const res = await unsuspend.mutateAsync();
    if (res.status !== 204) return setError(res.message || API_MSG.formOther(res.status));
    notify(ADMIN_USERS_MSG.unsuspended, 'success');
    onClose();
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby="unsuspend-title" fullWidth maxWidth="xs">
      <DialogTitle id="unsuspend-title">Lift the suspension?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {user.email} can sign in again and their content is shown again.
        </DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void confirm()} loading={unsuspend.isPending}>
          Unsuspend
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const PAYMENT_KIND: Record<string, string> = {
  membership_start: 'Membership',
  renewal: 'Renewal',
  refund: 'Refund',
};

function RefundDialog({
  user,
  payment,
  onClose,
}: {
  user: AdminUserDetail;
  payment: AdminUserPayment;
  onClose: () => void;
}) {
  const refund = useRefund(user.userId);
  const { notify } = useFeedback();
  return (
    <ReasonDialog
      id="refund-title"
      title={`Refund ${formatCents(payment.amountCents)}?`}
      text={`The payment goes back to ${user.email}'s card. The plan's silver they still hold is taken back, and what hunters earned from the silver already spent is taken back from them while it is unpaid.`}
      confirmLabel="Refund payment"
      pending={refund.isPending}
      onClose={onClose}
      act={async (reason) => {
        const res = await refund.mutateAsync({ chargeId: payment.chargeId, reason });
        if (res.status !== 200) return res.message || API_MSG.formOther(res.status);
        notify(
          `Refunded ${formatCents(res.data.refundedCents)}: ${formatCount(res.data.silverTaken)} silver taken back, ` +
            `${formatCents(res.data.earningsReversedCents)} of hunters' unpaid earnings reversed.`,
          'success',
        );
        return null;
      }}
    />
  );
}

function GrantSilverForm({ user }: { user: AdminUserDetail }) {
  const grant = useGrantSilver(user.userId);
  const { notify } = useFeedback();
  const [error, setError] = useState('');
  const form = useForm<GrantSilverInput, unknown, GrantSilverValues>({
    resolver: zodResolver(grantSilverSchema),
    defaultValues: { amount: '' as unknown as number, reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <Box
      component="form"
      noValidate
      aria-label="Grant silver"
      onSubmit={form.handleSubmit(async (values) => {
        setError('');
        const res = await grant.mutateAsync(values);
        if (res.status !== 200) return setError(res.message || API_MSG.formOther(res.status));
        notify(ADMIN_USERS_MSG.granted(values.amount), 'success');
        form.reset();
      })}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <TextField
        {...form.register('amount')}
        label="Amount"
        size="small"
        error={!!errors.amount}
        helperText={errors.amount?.message ?? `1 to ${formatCount(SILVER_GRANT_MAX)}`}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <TextField
        {...form.register('reason')}
        label="Reason"
        size="small"
        error={!!errors.reason}
        helperText={errors.reason?.message ?? 'The member sees the grant in their silver history.'}
        slotProps={{ htmlInput: { maxLength: ADMIN_REASON_MAX } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        type="submit"
        variant="contained"
        loading={isSubmitting}
        sx={{ alignSelf: 'flex-start' }}
      >
        Grant silver
      </Button>
    </Box>
  );
}

function ResendMailButton({ user }: { user: AdminUserDetail }) {
  const resend = useResendMail(user.userId);
  const { notify } = useFeedback();
  return (
    <Button
      variant="outlined"
      color="inherit"
      loading={resend.isPending}
      onClick={async () => {
        const res = await resend.mutateAsync({ kind: 'reset' });
        if (res.status === 204) notify(ADMIN_USERS_MSG.mailSent, 'success');
        else notify(res.message || API_MSG.formOther(res.status), 'error');
      }}
    >
      Send password reset mail
    </Button>
  );
}

function UserDetail({ user }: { user: AdminUserDetail }) {
  const [dialog, setDialog] = useState<'suspend' | 'unsuspend' | null>(null);
  const [refunding, setRefunding] = useState<AdminUserPayment | null>(null);
  return (
    <Box>
      <Link
        component={RouterLink}
        to="/admin/users"
        variant="body2"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}
      >
        <ArrowBackIcon fontSize="inherit" /> All users
      </Link>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 0.5 }}>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Typography>
        <StatusChip suspended={user.suspended} />
      </Box>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        User #{user.userId}
        {user.handle ? ` · @${user.handle}` : ''} · {roleNames(user.role)} · joined{' '}
        {formatDateTime(user.created)}
      </Typography>
      {user.suspended && (
        <Alert severity="error" sx={{ mb: 2 }}>
          Suspended since {formatDateTime(user.suspended)}. The reason is in the{' '}
          <Link
            component={RouterLink}
            to={`/admin/audit?action=user.suspend&targetType=user&targetId=${user.userId}`}
          >
            audit log
          </Link>
          .
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 3 }}>
        {user.suspended ? (
          <Button variant="contained" onClick={() => setDialog('unsuspend')}>
            Unsuspend
          </Button>
        ) : (
          <Button variant="contained" color="error" onClick={() => setDialog('suspend')}>
            Suspend
          </Button>
        )}
        <ResendMailButton user={user} />
        <Button
          component={RouterLink}
          to={`/admin/audit?targetType=user&targetId=${user.userId}`}
          color="inherit"
        >
          Audit log for this user
        </Button>
      </Box>

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
          mb: 2,
        }}
      >
        <Section title="Account" id="account-title">
          <Facts
            rows={[
              ['Role', roleNames(user.role)],
              ['Membership', membershipLabel(user.membership, user.active)],
              ['Active until', user.active ? formatDateTime(user.active) : '—'],
              ['Silver', <span data-testid="user-silver">{formatCount(user.silver)}</span>],
              ['Votes cast', formatCount(user.votes)],
              ['Credit card', user.card ?? 'None'],
            ]}
          />
        </Section>
        <Section title="Identity" id="identity-title">
          <Facts
            rows={[
              ['Status', user.identityStatus],
              ['Reason', user.identityReason ?? '—'],
            ]}
          />
        </Section>
        <Section title="Tax information" id="tax-title">
          <Facts
            rows={[
              ['Legal name', user.tax.legalName ? 'Set' : REQUIRED],
              ['Address', user.tax.address ? 'Set' : REQUIRED],
              ['SSN', user.tax.ssn ?? REQUIRED],
              ['', <Complete ok={user.tax.complete} />],
            ]}
          />
        </Section>
        <Section title="Banking information" id="bank-title">
          <Facts
            rows={[
              ['Bank', user.bank.name ?? REQUIRED],
              ['Account type', user.bank.accountType ?? '—'],
              ['Routing number', user.bank.routingNumber ? 'Set' : REQUIRED],
              ['Direct deposit', user.bank.account ?? REQUIRED],
              ['', <Complete ok={user.bank.complete} />],
            ]}
          />
        </Section>
        <Section title="Grant silver" id="grant-title">
          <GrantSilverForm user={user} />
        </Section>
      </Box>

      <Box sx={{ display: 'grid', gap: 2 }}>
        <Section title="Sessions" id="sessions-title">
          <MiniTable
            label="Sessions"
            head={['Started', 'Last used', 'Expires', 'Second factor']}
            rows={user.sessions}
            cells={(s) => [
              when(s.created),
              when(s.lastUsed),
              when(s.expires),
              s.secondFactor ? 'Yes' : '—',
            ]}
            empty="No open sessions."
          />
        </Section>
        <Section title="Payments" id="payments-title">
          <MiniTable
            label="Payments"
            head={['When', 'Kind', 'Amount', 'Status', '']}
            rows={user.payments}
            cells={(p) => [
              when(p.created),
              PAYMENT_KIND[p.kind] ?? p.kind,
              formatCents(p.amountCents),
              p.refunded ? <Chip size="small" label="Refunded" /> : p.status,
              p.refundable ? (
                <Button size="small" color="error" onClick={() => setRefunding(p)}>
                  Refund
                </Button>
              ) : (
                ''
              ),
            ]}
            empty="No payments."
          />
        </Section>
        <Section title="Silver history" id="silver-title">
          <MiniTable
            label="Silver history"
            head={['When', 'Change', 'Balance', 'Reason']}
            rows={user.silverHistory}
            cells={(h) => [
              when(h.created),
              h.delta > 0 ? `+${formatCount(h.delta)}` : `−${formatCount(-h.delta)}`,
              formatCount(h.balanceAfter),
              SILVER_REASON_LABEL[h.reason] ?? h.reason.replace(/_/g, ' '),
            ]}
            empty="No silver changes yet."
          />
        </Section>
        <Section title="Recent votes" id="votes-title">
          <MiniTable
            label="Recent votes"
            head={['When', 'Bounty', 'Claim', 'Votes']}
            rows={user.recentVotes}
            cells={(v) => [
              when(v.created),
              <Link component={RouterLink} to={`/bounty/${v.bountyId}`}>
                {v.bountyTitle}
              </Link>,
              <Link component={RouterLink} to={`/claim/${v.claimId}`}>
                #{v.claimId}
              </Link>,
              v.value,
            ]}
            empty="No votes yet."
          />
        </Section>
        <Section title="Claims" id="claims-title">
          <MiniTable
            label="Claims"
            head={['When', 'Bounty', 'Round', 'Votes', '']}
            rows={user.claims}
            cells={(c) => [
              when(c.created),
              <Link component={RouterLink} to={`/claim/${c.claimId}`}>
                {c.bountyTitle}
              </Link>,
              c.roundId,
              formatCount(c.votes),
              c.hidden ? <Chip size="small" label="Hidden" /> : '',
            ]}
            empty="No claims."
          />
        </Section>
        <Section title="Posts" id="posts-title">
          <MiniTable
            label="Posts"
            head={['When', 'Text', 'Media', '']}
            rows={user.posts}
            cells={(p) => [
              when(p.created),
              p.text ?? '—',
              <code>{p.file}</code>,
              p.hidden ? <Chip size="small" label="Hidden" /> : '',
            ]}
            empty="No posts."
          />
        </Section>
      </Box>

      {dialog === 'suspend' && <SuspendDialog user={user} onClose={() => setDialog(null)} />}
      {dialog === 'unsuspend' && <UnsuspendDialog user={user} onClose={() => setDialog(null)} />}
      {refunding && (
        <RefundDialog user={user} payment={refunding} onClose={() => setRefunding(null)} />
      )}
    </Box>
  );
}

export default function UserPage() {
  const userId = Number(useParams().userId);
  const valid = Number.isSafeInteger(userId) && userId > 0;
  const { data: res, isPending } = useAdminUser(userId, valid);
  if (!valid) return <Alert severity="error">{ADMIN_USERS_MSG.notFound}</Alert>;
  if (isPending) return <PageSpinner />;
  if (!res || res.status !== 200)
    return (
      <Alert severity="error">
        {res?.status === 404
          ? ADMIN_USERS_MSG.notFound
          : res?.message || API_MSG.formOther(res?.status ?? 500)}
      </Alert>
    );
  return <UserDetail user={res.data} />;
}
