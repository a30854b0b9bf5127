import {
  ACCOUNT_LIMITS,
  ACCOUNT_MSG,
  ACCOUNT_SUCCESS,
  handleSchema,
  stripHandle,
} from '@bountyhunt/shared/account';
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
      if (!parsed.success) return parsed.error.issues[0]?.message ?? ACCOUNT_MSG.handleRequired;
      const res = await putHandle(parsed.data.handle);
      if (res.status === 200) {
        update({ user: res.data.user, hunter: res.data.hunter });
        return null;
      }
      if (res.status === 409) return ACCOUNT_MSG.handleTaken;
      return formError(res, ACCOUNT_MSG.handleOther);
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
          setHandle(stripHandle(e.target.value, ACCOUNT_LIMITS.handle));
          flow.clearError();
        }}
        helperText={`Letters and numbers only, ${ACCOUNT_LIMITS.handleHintMin} to ${ACCOUNT_LIMITS.handle} characters (${handle.length}/${ACCOUNT_LIMITS.handle}).`}
        slotProps={{
          input: { startAdornment: <InputAdornment position="start">@</InputAdornment> },
          htmlInput: { maxLength: ACCOUNT_LIMITS.handle, 'data-testid': 'handle-input' },
        }}
      />
    </SettingsForm>
  );
}
