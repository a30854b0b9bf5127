/** Small pieces the identity queue and review share. */
import Chip from '@mui/material/Chip';

/** First and last name as the user entered them (tax information), or a dash. */
export const fullName = (i: { firstName: string | null; lastName: string | null }) =>
  [i.firstName, i.lastName].filter(Boolean).join(' ') || '—';

/** The form's "at least 18" confirmation: sent and true, sent and false, or not sent. */
export function AgeChip({ attested }: { attested: boolean | null }) {
  if (attested === null) return <Chip size="small" variant="outlined" label="Not stated" />;
  return attested ? (
    <Chip size="small" color="success" variant="outlined" label="18 or older" />
  ) : (
    <Chip size="small" color="warning" variant="outlined" label="Not confirmed" />
  );
}
