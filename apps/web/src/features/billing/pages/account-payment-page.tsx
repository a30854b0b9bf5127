/**
 * /account/payment: the card on file. An active member replaces the card (PUT /user/card,
 * then a success message and /account, SPEC.md §2 Settings page); anyone else starts or
 * restarts the membership with it (POST /user/membership → home with confetti).
 */
import { endingIn } from '@bountyhunt/shared/format';
import { PLANS } from '@bountyhunt/shared/billing';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isActiveMember } from '../../../lib/access';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import type { CardBody } from '../api/card-body';
import { useMembership } from '../api/get-membership';
import { useReplaceCard } from '../api/replace-card';
import { BillingPage } from '../components/billing-page';
import { CardForm } from '../components/card-form';
import { PaymentError } from '../components/payment-error';
import { PlanSummary } from '../components/plan-summary';
import { useStartMembershipFlow } from '../components/use-start-membership';

export const CARD_UPDATED = 'Success! Your credit card has been updated.';

function CardOnFile({ lastFour }: { lastFour: string | null }) {
  const membership = useMembership();
  const card = membership.data?.status === 200 ? membership.data.data.card : null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3 }} data-testid="card-on-file">
      <CreditCardIcon color="secondary" aria-hidden="true" />
      <Box>
        <Typography sx={{ fontWeight: 700 }}>
          {card
            ? `${card.brand} ${endingIn(card.lastFour)}`
            : lastFour
              ? endingIn(lastFour)
              : 'No card on file'}
        </Typography>
        {card && (
          <Typography variant="body2" color="text.secondary">
            Expires {String(card.expMonth).padStart(2, '0')}/{String(card.expYear).slice(-2)}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

function ReplaceCard({ planIndex, nextCharge }: { planIndex: number | null; nextCharge: string }) {
  const replace = useReplaceCard();
  const { refresh } = useSession();
  const { notify } = useFeedback();
  const navigate = useNavigate();
  const [error, setError] = useState<ReactNode | null>(null);

  const submit = async (body: CardBody) => {
    const res = await replace.mutateAsync(body);
    if (res.status !== 204) {
      setError(<PaymentError status={res.status} message={res.message} />);
      return;
    }
    await refresh();
    notify(CARD_UPDATED, 'success');
    navigate('/account');
  };

  return (
    <CardForm
      submitLabel="Update Card"
      onSubmit={submit}
      loading={replace.isPending}
      error={error}
      onClearError={() => setError(null)}
    >
      <PlanSummary planIndex={planIndex} nextCharge={nextCharge} />
    </CardForm>
  );
}

function StartWithCard({ planIndex }: { planIndex: number | null }) {
  const flow = useStartMembershipFlow();
  return (
    <CardForm
      submitLabel="Start Membership"
      onSubmit={flow.submit}
      loading={flow.loading}
      error={flow.error}
      onClearError={flow.clearError}
    >
      <PlanSummary planIndex={planIndex} changeTo="/signup/plan" />
    </CardForm>
  );
}

export default function AccountPaymentPage() {
  const { user } = useSession();
  // Decided once on arrival, so starting a membership here does not swap the form mid-way.
  const [active] = useState(() => isActiveMember(user));
  const membership = useMembership();
  if (!user) return null;
  const plan = user.membership !== null ? PLANS[user.membership] : undefined;
  const pendingOrCurrent =
    membership.data?.status === 200
      ? (membership.data.data.pendingMembership ?? user.membership)
      : user.membership;
  return (
    <BillingPage
      title="Credit Card"
      intro={
        active
          ? `The card we charge for your ${plan ? `${plan.name} ` : ''}membership each month.`
          : user.active
            ? 'Welcome back! Enter a card to restart your membership.'
            : 'Enter a card to start your membership.'
      }
    >
      <CardOnFile lastFour={user.creditCardLastFour} />
      {active && user.active ? (
        <ReplaceCard planIndex={pendingOrCurrent} nextCharge={user.active} />
      ) : (
        <StartWithCard planIndex={user.membership} />
      )}
    </BillingPage>
  );
}
