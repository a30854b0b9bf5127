/** The report form: a reason from the list and optional details (POST /report). */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  REPORT_TEXT_MAX,
  reportCreateSchema,
  type ReportCreatedAnswer,
  type ReportTarget,
} from '@bountyhunt/shared/moderation';
import { REPORT_MSG } from '@bountyhunt/shared/moderation-texts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useFeedback } from '../../lib/feedback';
import { useApiMutation } from '../../lib/query';

type Form = z.input<typeof reportCreateSchema>;

const NOUN: Record<ReportTarget, string> = {
  claim: 'claim',
  post: 'post',
  hunter: 'profile',
  bounty: 'bounty',
  message: 'message',
};

export default function ReportDialog({
  targetType,
  targetId,
  onClose,
}: {
  targetType: ReportTarget;
  targetId: number;
  onClose: () => void;
}) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  const { notify } = useFeedback();
  const [error, setError] = useState('');
  const send = useApiMutation<Form, ReportCreatedAnswer>('POST', '/report');
  const { control, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(reportCreateSchema),
    defaultValues: { targetType, targetId, reason: undefined, text: '' },
  });
  const text = useWatch({ control, name: 'text' }) ?? '';

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    const res = await send.mutateAsync(values);
    if (res.status === 200) {
      notify(REPORT_MSG.sent, 'success');
      return onClose();
    }
    if (res.status === 409) {
      notify(REPORT_MSG.alreadyReported, 'info');
      return onClose();
    }
    setError(res.status === 404 ? REPORT_MSG.notFound : res.message || REPORT_MSG.failed);
  });

  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="xs"
      aria-labelledby="report-title"
      data-testid="report-dialog"
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <DialogTitle id="report-title">Report this {NOUN[targetType]}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Our moderators will look at it. The owner is not told who reported it.
          </DialogContentText>
          <Controller
            name="reason"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                select
                fullWidth
                color="secondary"
                label="Reason"
                value={field.value ?? ''}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={!!fieldState.error}
                helperText={fieldState.error ? 'Please choose a reason.' : ' '}
                slotProps={{
                  select: { SelectDisplayProps: { 'data-testid': 'report-reason' } as object },
                }}
              >
                {REPORT_REASONS.map((r) => (
                  <MenuItem key={r} value={r} data-testid={`report-reason-${r}`}>
                    {REPORT_REASON_LABELS[r]}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            name="text"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                fullWidth
                multiline
                minRows={3}
                color="secondary"
                label="Details (optional)"
                error={!!fieldState.error}
                helperText={`${text.length}/${REPORT_TEXT_MAX}`}
                slotProps={{
                  htmlInput: { maxLength: REPORT_TEXT_MAX, 'data-testid': 'report-text' },
                }}
              />
            )}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button color="inherit" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={formState.isSubmitting}
            data-testid="report-submit"
          >
            Send Report
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
