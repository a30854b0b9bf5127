import { Navigate } from 'react-router';
import { isActiveMember } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { HandleForm } from '../components/handle-form';

/** /signup/handle/user: member sign-up step 3 (SPEC.md §2, §4 Membership). */
export default function SignupHandlePage() {
  const { user } = useSession();
  // The handle and payment steps send members whose membership already runs to /join.
  if (isActiveMember(user)) return <Navigate to="/join" replace />;
  return (
    <HandleForm
      step="Step 3 of 4"
      title="Create Public User Handle"
      intro="Pick the handle other members see next to your bounties and votes. You can change it later in your settings."
      next="/signup/payment"
      skippable
      submitLabel="Next"
    />
  );
}
