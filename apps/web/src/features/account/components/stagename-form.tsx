import { ACCOUNT_LIMITS, ACCOUNT_MSG, ACCOUNT_SUCCESS } from '@bountyhunt/shared/account';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putStagename } from '../api/update-stagename';
import { formError, useFormFlow } from './form-flow';
import { SettingsForm } from './settings-form';

interface Props {
  title: string;
  step?: string;
  intro?: string;
  next?: string;
  skippable?: boolean;
  submitLabel?: string;
}

/** Stage name (SPEC.md §5): optional, at most 30 (hint 5 to 30), empty sent as the text null. */
export function StagenameForm({
  title,
  step,
  intro,
  next,
  skippable,
  submitLabel = 'Save Stage Name',
}: Props) {
  const { hunter, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.stagename, next);
  const [stagename, setStagename] = useState(() => hunter?.stagename ?? '');

  const onSubmit = () =>
    flow.submit(async () => {
      const res = await putStagename(stagename);
      if (res.status === 200) {
        update({ hunter: res.data });
        return null;
      }
      return formError(res, (s) => ACCOUNT_MSG.settingOther('stage name', s));
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
        label="Stage Name"
        name="stagename"
        value={stagename}
        autoFocus
        onChange={(e) => {
          setStagename(e.target.value.slice(0, ACCOUNT_LIMITS.stagename));
          flow.clearError();
        }}
        helperText={`Optional, ${ACCOUNT_LIMITS.stagenameHintMin} to ${ACCOUNT_LIMITS.stagename} characters (${stagename.length}/${ACCOUNT_LIMITS.stagename}).`}
        slotProps={{
          htmlInput: { maxLength: ACCOUNT_LIMITS.stagename, 'data-testid': 'stagename-input' },
        }}
      />
    </SettingsForm>
  );
}
