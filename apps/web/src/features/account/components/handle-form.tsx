import { ACCOUNT_SUCCESS, stripHandle } from '@bountyhunt/shared/account';
import { LIMITS } from '@bountyhunt/shared/limits';
import { MSG, MSGF } from '@bountyhunt/shared/messages';
import { handleSchema } from '@bountyhunt/shared/schemas';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putHandle } from '../api/update-handle';
import { formError, useFormFlow } from './form-flow';
import { SettingsForm } from './settings-form';

interface Props {
  title: string;
  step?: string;
  intro?: string;
  /** Onboarding: where to go after saving (and on Skip for Now when skippable). */
  next?: string;
  skippable?: boolean;
  submitLabel?: string;
}

/** Handle (SPEC.md §5): letters and digits only, stripped as typed, at most 15; 409 taken. */
export function HandleForm({
  title,
  step,
  intro,
  next,
  skippable,
  submitLabel = 'Save Handle',
}: Props) {
  const { user, hunter, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.handle, next);
  const [handle, setHandle] = useState(() => hunter?.handle ?? user?.handle ?? '');

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = handleSchema.safeParse({ handle });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? MSG.handleRequired;
      const res = await putHandle(parsed.data.handle);
      if (res.status === 200) {
        update({ user: res.data.user, hunter: res.data.hunter });
        return null;
      }
      if (res.status === 409) return MSG.handleTaken;
      return formError(res, MSGF.handleOther);
    });

  return (
    <SettingsForm
      title={title}
      step={step}
      intro={intro}
      flow={flow}
      submitLabel={submitLabel}
      onSubmit={onSubmit}
      skippable={skippable}
    >
      <TextField
        color="secondary"
        label="Handle"
        name="handle"
        value={handle}
        autoFocus
        autoComplete="username"
        onChange={(e) => {
          setHandle(stripHandle(e.target.value, LIMITS.handle));
          flow.clearError();
        }}
        helperText={`Letters and numbers only, ${LIMITS.handleHintMin} to ${LIMITS.handle} characters (${handle.length}/${LIMITS.handle}).`}
        slotProps={{
          input: { startAdornment: <InputAdornment position="start">@</InputAdornment> },
          htmlInput: { maxLength: LIMITS.handle, 'data-testid': 'handle-input' },
        }}
      />
    </SettingsForm>
  );
}
