import { Navigate } from 'react-router';
import { hunterHandle } from '../../../lib/access';
import { useSession } from '../../../lib/session';
import { StagenameForm } from '../components/stagename-form';

/** /enrollment/stagename: creator enrollment step 3; no handle yet → /join (SPEC.md §2). */
export default function EnrollmentStagenamePage() {
  const { user, hunter } = useSession();
  if (!hunterHandle(user, hunter)) return <Navigate to="/join" replace />;
  return (
    <StagenameForm
      step="Step 3 of 3"
      title="Confirm Stage Name"
      intro="Add the name you perform under. It appears on your profile next to your handle."
      next="/"
      skippable
      submitLabel="Confirm Stage Name"
    />
  );
}
