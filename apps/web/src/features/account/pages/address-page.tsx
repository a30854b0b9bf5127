import { ACCOUNT_LIMITS, ACCOUNT_SUCCESS, addressSchema } from '@bountyhunt/shared/account';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putAddress } from '../api/update-address';
import { formError, useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

type Field = 'street' | 'city' | 'state' | 'zip';
const FIELDS: { name: Field; label: string; max: number; autoComplete: string }[] = [
  {
    name: 'street',
    label: 'Street Address',
    max: ACCOUNT_LIMITS.street,
    autoComplete: 'street-address',
  },
  { name: 'city', label: 'City', max: ACCOUNT_LIMITS.city, autoComplete: 'address-level2' },
  { name: 'state', label: 'State', max: ACCOUNT_LIMITS.state, autoComplete: 'address-level1' },
  { name: 'zip', label: 'Zip Code', max: ACCOUNT_LIMITS.zip, autoComplete: 'postal-code' },
];

/** /account/address: tax address (SPEC.md §5 Address). */
export default function AddressPage() {
  const { user, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.address);
  const [value, setValue] = useState<Record<Field, string>>(() => ({
    street: user?.taxAddress?.street ?? '',
    city: user?.taxAddress?.city ?? '',
    state: user?.taxAddress?.state ?? '',
    zip: user?.taxAddress?.zip ?? '',
  }));

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = addressSchema.safeParse(value);
      if (!parsed.success) return parsed.error.issues[0]?.message ?? '';
      const res = await putAddress(parsed.data);
      if (res.status === 200) {
        update({ user: res.data.user });
        return null;
      }
      return formError(res);
    });

  const field = (f: (typeof FIELDS)[number], autoFocus = false) => (
    <TextField
      color="secondary"
      key={f.name}
      label={f.label}
      name={f.name}
      value={value[f.name]}
      autoFocus={autoFocus}
      autoComplete={f.autoComplete}
      onChange={(e) => {
        setValue((v) => ({ ...v, [f.name]: e.target.value }));
        flow.clearError();
      }}
      slotProps={{ htmlInput: { maxLength: f.max, 'data-testid': `address-${f.name}` } }}
    />
  );

  return (
    <SettingsForm
      title="Address"
      intro="The address for your tax documents."
      flow={flow}
      submitLabel="Save Address"
      onSubmit={onSubmit}
    >
      {field(FIELDS[0]!, true)}
      {field(FIELDS[1]!)}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field(FIELDS[2]!)}
        {field(FIELDS[3]!)}
      </Stack>
    </SettingsForm>
  );
}
