import { HandleForm } from '../components/handle-form';

/** /enrollment/handle: creator enrollment step 2, then the stage name (SPEC.md §2, §4). */
export default function EnrollmentHandlePage() {
  return (
    <HandleForm
      step="Step 2 of 3"
      title="Create Your Handle"
      intro="Your handle is your public name on BountyHunt: your profile lives at /profile/your-handle."
      next="/enrollment/stagename"
      submitLabel="Next"
    />
  );
}
