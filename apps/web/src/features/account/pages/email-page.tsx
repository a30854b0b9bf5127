import { ACCOUNT_MSG, ACCOUNT_SUCCESS } from '@bountyhunt/shared/account';
import { AUTH_LIMITS, AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { emailLongSchema } from '@bountyhunt/shared/auth';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putEmail } from '../api/update-email';
import { useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

/** /account/email (SPEC.md §5 Email, §8 Email change). */
export default function EmailPage() {
  const { user, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.email);
  const [email, setEmail] = useState('');

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = emailLongSchema.safeParse(email);
      if (!parsed.success) return AUTH_MSG.emailInvalidLong;
      const res = await putEmail(parsed.data);
      if (res.status === 200) {
        update({ user: res.data.user });
        return null;
      }
      if (res.status === 400) return ACCOUNT_MSG.emailChangeInvalid;
      if (res.status === 406) return ACCOUNT_MSG.emailChangeTaken;
      return ACCOUNT_MSG.emailOther(res.status);
    });

  return (
    <SettingsForm
      title="Change Email"
      intro={user ? `You sign in with ${user.email}.` : undefined}
      flow={flow}
      submitLabel="Update Email"
      onSubmit={onSubmit}
    >
      <TextField
        color="secondary"
        label="New Email"
        name="email"
        type="email"
        value={email}
        autoFocus
        autoComplete="email"
        onChange={(e) => {
          setEmail(e.target.value);
          flow.clearError();
        }}
        slotProps={{ htmlInput: { maxLength: AUTH_LIMITS.email, 'data-testid': 'email-input' } }}
      />
    </SettingsForm>
  );
}
