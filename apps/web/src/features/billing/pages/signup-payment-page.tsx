/** /signup/payment (SPEC.md §2): Step 4 of 4, card entry and Start Membership → home with confetti. */
import { Navigate } from 'react-router';
import { isActiveMember } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { BillingPage } from '../components/billing-page';
import { CardForm } from '../components/card-form';
import { PlanSummary } from '../components/plan-summary';
import { useStartMembershipFlow } from '../components/use-start-membership';

export default function SignupPaymentPage() {
  const { user } = useSession();
  const flow = useStartMembershipFlow();
  // SPEC.md §4: the signup steps send a member whose membership is running to /join.
  if (!user || (isActiveMember(user) && !flow.finished)) return <Navigate to="/join" replace />;
  return (
    <BillingPage
      step="Step 4 of 4"
      title="Start Your Membership"
      intro="Enter your card to start your membership. Your silver arrives as soon as the payment goes through."
    >
      <CardForm
        submitLabel="Start Membership"
        onSubmit={flow.submit}
        loading={flow.loading}
        error={flow.error}
        onClearError={flow.clearError}
      >
        <PlanSummary planIndex={user.membership} changeTo="/signup/plan" />
      </CardForm>
    </BillingPage>
  );
}
