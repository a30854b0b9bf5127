import { HandleForm } from '../components/handle-form';

/** /account/handle */
export default function HandlePage() {
  return (
    <HandleForm
      title="Your Handle"
      intro="Your public handle is how others find and mention you on BountyHunt."
    />
  );
}
