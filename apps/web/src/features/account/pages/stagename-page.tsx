import { StagenameForm } from '../components/stagename-form';

/** /account/stagename */
export default function StagenamePage() {
  return (
    <StagenameForm
      title="Stage Name"
      intro="The name shown beside your handle on your profile. Leave it empty to show only your handle."
    />
  );
}
