import { ACCOUNT_LIMITS, ACCOUNT_SUCCESS, nameSchema } from '@bountyhunt/shared/account';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putName } from '../api/update-name';
import { formError, useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

/** /account/name: legal name for the yearly 1099 (SPEC.md §5 Legal name). */
export default function NamePage() {
  const { user, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.name);
  const [firstName, setFirst] = useState(() => user?.firstName ?? '');
  const [lastName, setLast] = useState(() => user?.lastName ?? '');

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = nameSchema.safeParse({ firstName, lastName });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? '';
      const res = await putName(parsed.data.firstName, parsed.data.lastName);
      if (res.status === 200) {
        update({ user: res.data.user });
        return null;
      }
      return formError(res);
    });

  return (
    <SettingsForm
      title="Legal Name"
      intro="Your name as it appears on your tax documents. It is never shown publicly."
      flow={flow}
      submitLabel="Save Legal Name"
      onSubmit={onSubmit}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          color="secondary"
          label="First Name"
          name="firstName"
          value={firstName}
          autoFocus
          autoComplete="given-name"
          onChange={(e) => {
            setFirst(e.target.value);
            flow.clearError();
          }}
          slotProps={{
            htmlInput: { maxLength: ACCOUNT_LIMITS.firstName, 'data-testid': 'first-name' },
          }}
        />
        <TextField
          color="secondary"
          label="Last Name"
          name="lastName"
          value={lastName}
          autoComplete="family-name"
          onChange={(e) => {
            setLast(e.target.value);
            flow.clearError();
          }}
          slotProps={{
            htmlInput: { maxLength: ACCOUNT_LIMITS.lastName, 'data-testid': 'last-name' },
          }}
        />
      </Stack>
    </SettingsForm>
  );
}
