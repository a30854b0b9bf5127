import { ACCOUNT_MSG, ACCOUNT_SUCCESS, passwordChangeSchema } from '@bountyhunt/shared/account';
import { AUTH_LIMITS, AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { putPassword } from '../api/update-password';
import { useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

/** /account/password (SPEC.md §5 Password change, §8 Password update). */
export default function PasswordPage() {
  const flow = useFormFlow(ACCOUNT_SUCCESS.password);
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = passwordChangeSchema.safeParse({ oldPassword, newPassword });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? AUTH_MSG.passwordCriteria;
      const res = await putPassword(oldPassword, newPassword);
      if (res.status === 204) return null;
      if (res.status === 400) return ACCOUNT_MSG.passwordWrong;
      return ACCOUNT_MSG.passwordOther(res.status);
    });

  return (
    <SettingsForm
      title="Change Password"
      intro="At least 8 characters, with an uppercase letter, a lowercase letter and a special character. Your other sessions will be signed out."
      flow={flow}
      submitLabel="Update Password"
      onSubmit={onSubmit}
    >
      <TextField
        color="secondary"
        label="Current Password"
        name="oldPassword"
        type="password"
        value={oldPassword}
        autoFocus
        autoComplete="current-password"
        onChange={(e) => {
          setOld(e.target.value);
          flow.clearError();
        }}
        slotProps={{
          htmlInput: { maxLength: AUTH_LIMITS.passwordMax, 'data-testid': 'old-password' },
        }}
      />
      <TextField
        color="secondary"
        label="New Password"
        name="newPassword"
        type="password"
        value={newPassword}
        autoComplete="new-password"
        onChange={(e) => {
          setNew(e.target.value);
          flow.clearError();
        }}
        slotProps={{
          htmlInput: { maxLength: AUTH_LIMITS.passwordMax, 'data-testid': 'new-password' },
        }}
      />
    </SettingsForm>
  );
}
