/** Opens the next round of a bounty whose current round has ended (its poster only). */
import { BOUNTY_DURATIONS, DEFAULT_BOUNTY_SECONDS, type Bounty } from '@bountyhunt/shared/bounties';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { useOpenRound } from '../api/open-round';

export default function OpenRoundDialog({
  bounty,
  onClose,
}: {
  bounty: Bounty;
  onClose: () => void;
}) {
  const [seconds, setSeconds] = useState<number>(DEFAULT_BOUNTY_SECONDS);
  const [amount, setAmount] = useState('0');
  const [error, setError] = useState('');
  const open = useOpenRound(bounty.bountyId);
  const { refresh } = useSession();

  async function submit() {
    setError('');
    const res = await open.mutateAsync({ seconds, amount: Number(amount || 0) });
    if (res.status !== 200) return setError(res.message || `Error opening round (${res.status})`);
    if (Number(amount) > 0) void refresh();
    onClose();
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby="open-round-title" fullWidth maxWidth="xs">
      <DialogTitle id="open-round-title">Open round {bounty.roundCount + 1}</DialogTitle>
      <DialogContent>
        <ToggleButtonGroup
          exclusive
          value={seconds}
          onChange={(_e, v: number | null) => v !== null && setSeconds(v)}
          aria-label="Duration"
          color="secondary"
          fullWidth
          sx={{ mb: 2, mt: 1 }}
        >
          {BOUNTY_DURATIONS.map((d) => (
            <ToggleButton key={d.seconds} value={d.seconds} sx={{ px: 1, whiteSpace: 'nowrap' }}>
              {d.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          label="Add silver to the prize"
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/[^\d]/g, ''))}
          slotProps={{ htmlInput: { min: 0, inputMode: 'numeric' } }}
        />
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
        <Button variant="contained" onClick={() => void submit()} disabled={open.isPending}>
          Open Round
        </Button>
      </DialogActions>
    </Dialog>
  );
}
