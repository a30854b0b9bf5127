import {
  ACCOUNT_LIMITS,
  ACCOUNT_MSG,
  ACCOUNT_SUCCESS,
  ssnSchema,
} from '@bountyhunt/shared/account';
import { maskSsn } from '@bountyhunt/shared/format';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putSsn } from '../api/update-ssn';
import { formError, useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

/** /account/ssn: 9 digits, stored encrypted; only the last four come back (SPEC.md §5 SSN). */
export default function SsnPage() {
  const { user, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.ssn);
  const [ssn, setSsn] = useState('');
  const saved = maskSsn(user?.ssnLastFour);

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = ssnSchema.safeParse({ ssn });
      if (!parsed.success) return ACCOUNT_MSG.ssnIncomplete;
      const res = await putSsn(parsed.data.ssn);
      if (res.status === 200) {
        setSsn('');
        update({ user: res.data.user });
        return null;
      }
      return formError(res);
    });

  return (
    <SettingsForm
      title="Social Security Number"
      intro={
        saved
          ? `On file: ${saved}. Enter a new number to replace it.`
          : 'Needed for the yearly 1099 tax form. It is stored encrypted and only the last four digits are ever shown.'
      }
      flow={flow}
      submitLabel="Save SSN"
      onSubmit={onSubmit}
    >
      <TextField
        color="secondary"
        label="Social Security Number"
        name="ssn"
        value={ssn}
        autoFocus
        autoComplete="off"
        onChange={(e) => {
          setSsn(e.target.value.replace(/\D/g, '').slice(0, ACCOUNT_LIMITS.ssn));
          flow.clearError();
        }}
        helperText="9 digits, no dashes."
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            maxLength: ACCOUNT_LIMITS.ssn,
            'data-testid': 'ssn-input',
          },
        }}
      />
    </SettingsForm>
  );
}
