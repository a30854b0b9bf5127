/**
 * The credit card form of SPEC.md §3/§5: number (digits and spaces, grouped as typed),
 * expiry (digits, '/' inserted after two, a leading digit above 1 prefixed with 0, at most
 * 5 characters), CVV (digits, at most 4), name and zip. Validated with the shared
 * cardSchema before anything is sent; the number leaves the browser without spaces.
 */
import {
  BILLING_LIMITS,
  formatCardNumberInput,
  formatExpiryInput,
} from '@bountyhunt/shared/billing';
import { ACCOUNT_LIMITS } from '@bountyhunt/shared/account';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import LockIcon from '@mui/icons-material/Lock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { CardBody } from '../api/card-body';
import { EMPTY_CARD, validateCard, type CardField as Field } from './card-validation';

export interface CardFormProps {
  submitLabel: string;
  /** Called with a valid body; the page shows the API's answer through `error`. */
  onSubmit: (body: CardBody) => Promise<void>;
  loading: boolean;
  error: ReactNode | null;
  /** Clears the page's error before a new submit (SPEC.md §4 Forms). */
  onClearError: () => void;
  /** Shown between the fields and the button (price, fee text). */
  children?: ReactNode;
}

export function CardForm({
  submitLabel,
  onSubmit,
  loading,
  error,
  onClearError,
  children,
}: CardFormProps) {
  const [values, setValues] = useState(EMPTY_CARD);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (loading) return;
    onClearError();
    const result = validateCard(values);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await onSubmit(result.body);
  };

  const field = (name: Field) => ({
    name,
    value: values[name],
    error: !!errors[name],
    helperText: errors[name] ?? ' ',
    disabled: loading,
  });

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Credit card">
      <Stack spacing={0.5}>
        <TextField
          {...field('number')}
          id="card-number"
          label="Card Number"
          placeholder="1234 5678 9012 3456"
          autoComplete="cc-number"
          onChange={(e) => set('number', formatCardNumberInput(e.target.value))}
          slotProps={{
            htmlInput: { inputMode: 'numeric', maxLength: 23, 'data-testid': 'card-number' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <CreditCardIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={2}>
          <TextField
            {...field('expiry')}
            id="card-expiry"
            label="Expiry"
            placeholder="MM/YY"
            autoComplete="cc-exp"
            onChange={(e) => set('expiry', formatExpiryInput(e.target.value, values.expiry))}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                maxLength: BILLING_LIMITS.expiry,
                'data-testid': 'card-expiry',
              },
            }}
          />
          <TextField
            {...field('cvv')}
            id="card-cvv"
            label="CVV"
            placeholder="123"
            autoComplete="cc-csc"
            onChange={(e) =>
              set('cvv', e.target.value.replace(/\D/g, '').slice(0, BILLING_LIMITS.cvv))
            }
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                maxLength: BILLING_LIMITS.cvv,
                'data-testid': 'card-cvv',
              },
            }}
          />
        </Stack>
        <TextField
          {...field('name')}
          id="card-name"
          label="Name on Card"
          autoComplete="cc-name"
          onChange={(e) => set('name', e.target.value.slice(0, 100))}
          slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'card-name' } }}
        />
        <TextField
          {...field('zip')}
          id="card-zip"
          label="Zip Code"
          autoComplete="postal-code"
          onChange={(e) => set('zip', e.target.value.slice(0, ACCOUNT_LIMITS.zip))}
          slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.zip, 'data-testid': 'card-zip' } }}
        />
      </Stack>
      {children}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="payment-error">
          {error}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={loading}
        startIcon={loading ? <CircularProgress size={18} color="inherit" /> : <LockIcon />}
      >
        {submitLabel}
      </Button>
      <Typography
        variant="caption"
        component="p"
        color="text.secondary"
        sx={{ mt: 1.5, textAlign: 'center' }}
      >
        Your card number and CVV are passed to our payment processor and never stored; we keep only
        the last four digits.
      </Typography>
    </Box>
  );
}
