import { PAYMENT_MSG } from '@bountyhunt/shared/billing';
import Box from '@mui/material/Box';

/** SPEC.md §8 Payment message with the status, plus the processor's reason when it gave one. */
export function PaymentError({ status, message }: { status: number; message: string }) {
  const detail = message && message !== 'UNKNOWN_ERROR' ? message : null;
  return (
    <>
      <Box component="span" sx={{ display: 'block' }}>
        {PAYMENT_MSG.paymentError(status)}
      </Box>
      {detail && (
        <Box component="span" sx={{ display: 'block', fontWeight: 700, mt: 0.5 }}>
          {detail}
        </Box>
      )}
    </>
  );
}
