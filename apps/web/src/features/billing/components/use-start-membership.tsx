import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../../lib/feedback';
import { useSession } from '../../../lib/session';
import type { CardBody } from '../api/card-body';
import { useStartMembership } from '../api/start-membership';
import { PaymentError } from './payment-error';

/**
 * Start Membership (SPEC.md §4 Onboarding): POST /user/membership, then home with confetti.
 * `finished` turns true before the session says "active", so a page that sends active
 * members to /join does not bounce the new member there on the way home.
 */
export function useStartMembershipFlow() {
  const start = useStartMembership();
  const { update } = useSession();
  const { confetti } = useFeedback();
  const navigate = useNavigate();
  const [error, setError] = useState<ReactNode | null>(null);
  const [finished, setFinished] = useState(false);

  const submit = async (body: CardBody) => {
    const res = await start.mutateAsync(body);
    if (res.status !== 200 || !res.data) {
      setError(<PaymentError status={res.status} message={res.message} />);
      return;
    }
    setFinished(true);
    update({ user: res.data });
    void confetti();
    navigate('/');
  };

  return {
    submit,
    loading: start.isPending || finished,
    error,
    clearError: () => setError(null),
    finished,
  };
}
