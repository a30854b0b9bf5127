import { ACCOUNT_LIMITS, ACCOUNT_SUCCESS, bankSchema } from '@bountyhunt/shared/account';
import { endingIn } from '@bountyhunt/shared/format';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putBank } from '../api/update-bank';
import { formError, useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

type AccountType = 'checking' | 'savings';

/** /account/bank: direct deposit for the weekly payouts (SPEC.md §5 Bank). */
export default function BankPage() {
  const { user, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.bank);
  const [name, setName] = useState(() => user?.bankInfo?.name ?? '');
  const [accountType, setType] = useState<AccountType>(() =>
    user?.bankInfo?.accountType === 'savings' ? 'savings' : 'checking',
  );
  const [routingNumber, setRouting] = useState(() => user?.bankInfo?.routingNumber ?? '');
  const [accountNumber, setAccount] = useState('');
  const saved = endingIn(user?.bankAccountLastFour);

  const onSubmit = () =>
    flow.submit(async () => {
      const parsed = bankSchema.safeParse({ name, accountType, routingNumber, accountNumber });
      if (!parsed.success) return parsed.error.issues[0]?.message ?? '';
      const res = await putBank(parsed.data);
      if (res.status === 200) {
        setAccount('');
        update({ user: res.data.user });
        return null;
      }
      return formError(res);
    });

  const edit =
    (set: (v: string) => void, digits?: number) => (e: { target: { value: string } }) => {
      set(digits ? e.target.value.replace(/\D/g, '').slice(0, digits) : e.target.value);
      flow.clearError();
    };

  return (
    <SettingsForm
      title="Direct Deposit"
      intro={
        saved
          ? `Payouts go to the account ${saved.toLowerCase()}. Enter new details to replace it.`
          : 'Weekly payouts are deposited into this account. The account number is stored encrypted.'
      }
      flow={flow}
      submitLabel="Save Bank Account"
      onSubmit={onSubmit}
    >
      <TextField
        color="secondary"
        label="Bank Name"
        name="bankName"
        value={name}
        autoFocus
        onChange={edit(setName)}
        slotProps={{
          htmlInput: { maxLength: ACCOUNT_LIMITS.bankName, 'data-testid': 'bank-name' },
        }}
      />
      <FormControl>
        <FormLabel id="account-type-label" color="secondary">
          Account Type
        </FormLabel>
        <RadioGroup
          row
          aria-labelledby="account-type-label"
          name="accountType"
          value={accountType}
          onChange={(e) => {
            setType(e.target.value as AccountType);
            flow.clearError();
          }}
        >
          <FormControlLabel value="checking" control={<Radio />} label="Checking" />
          <FormControlLabel value="savings" control={<Radio />} label="Savings" />
        </RadioGroup>
      </FormControl>
      <TextField
        color="secondary"
        label="Routing Number"
        name="routingNumber"
        value={routingNumber}
        onChange={edit(setRouting, ACCOUNT_LIMITS.routingNumber)}
        helperText="9 digits."
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            maxLength: ACCOUNT_LIMITS.routingNumber,
            'data-testid': 'routing-number',
          },
        }}
      />
      <TextField
        color="secondary"
        label="Account Number"
        name="accountNumber"
        value={accountNumber}
        autoComplete="off"
        onChange={edit(setAccount, ACCOUNT_LIMITS.accountNumberMax)}
        helperText={`${ACCOUNT_LIMITS.accountNumberMin} to ${ACCOUNT_LIMITS.accountNumberMax} digits.`}
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            maxLength: ACCOUNT_LIMITS.accountNumberMax,
            'data-testid': 'account-number',
          },
        }}
      />
    </SettingsForm>
  );
}
