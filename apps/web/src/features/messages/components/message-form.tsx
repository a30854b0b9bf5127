/**
 * The send form: text (1 to 1,000 characters, with a counter), one optional image uploaded
 * through POST /media/image; Enter sends, Shift+Enter starts a new line.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_LIMITS,
  MESSAGE_MSG,
  messageSendSchema,
  type MessageSendInput,
} from '@bountyhunt/shared/live';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import CloseIcon from '@mui/icons-material/Close';
import SendRoundedIcon from '@mui/icons-material/SendRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { uploadMedia } from '../../../lib/upload-media';
import { useSendMessage } from '../api/send-message';

function sendError(status: number, message: string): string {
  if (status === 429) return message || 'You are sending messages too fast. Wait a minute.';
  if (status === 403) return message || MESSAGE_MSG.blocked;
  return message || `Error sending message (${status})`;
}

export function MessageForm({
  conversationId,
  disabled,
  onSent,
}: {
  conversationId: number;
  disabled: boolean;
  onSent: () => void;
}) {
  const send = useSendMessage(conversationId);
  const [error, setError] = useState('');
  const [upload, setUpload] = useState<{ url: string; busy: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { control, handleSubmit, reset, setValue, setFocus, formState } = useForm<MessageSendInput>(
    {
      resolver: zodResolver(messageSendSchema),
      defaultValues: { text: '', image: undefined },
    },
  );
  const text = useWatch({ control, name: 'text' }) ?? '';

  useEffect(
    () => () => {
      if (upload) URL.revokeObjectURL(upload.url);
    },
    [upload],
  );

  async function attach(file: File | undefined) {
    if (!file) return;
    setError('');
    if (!file.type.startsWith('image/')) return setError(MESSAGE_MSG.imageOnly);
    setUpload({ url: URL.createObjectURL(file), busy: true });
    setValue('image', undefined);
    const res = await uploadMedia(file, { to: 'image' });
    if (res.status === 200 && res.data?.key) {
      setValue('image', res.data.key);
      setUpload((u) => (u ? { ...u, busy: false } : u));
    } else {
      setUpload(null);
      setError(`Upload failed (${res.status})${res.message ? `: ${res.message}` : ''}`);
    }
  }

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    const res = await send.mutateAsync(values);
    if (res.status !== 200) return setError(sendError(res.status, res.message));
    reset({ text: '', image: undefined });
    setUpload(null);
    onSent();
    setFocus('text');
  });

  const busy = formState.isSubmitting || !!upload?.busy;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      aria-label="Send a message"
      sx={{ p: 1.5, borderTop: '1px solid rgba(255,255,255,0.08)' }}
    >
      {error && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="message-error">
          {error}
        </Alert>
      )}
      {upload && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Box
            component="img"
            src={upload.url}
            alt="Image to send"
            sx={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 1 }}
          />
          {upload.busy ? (
            <CircularProgress size={20} aria-label="Uploading image" />
          ) : (
            <IconButton
              size="small"
              aria-label="Remove image"
              onClick={() => {
                setUpload(null);
                setValue('image', undefined);
              }}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          )}
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          hidden
          data-testid="message-image"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            void attach(file);
          }}
        />
        <IconButton
          aria-label="Attach an image"
          onClick={() => fileInput.current?.click()}
          disabled={disabled || busy}
          sx={{ mb: 3 }}
        >
          <AddPhotoAlternateOutlinedIcon />
        </IconButton>
        <Controller
          name="text"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              fullWidth
              multiline
              maxRows={5}
              size="small"
              color="secondary"
              placeholder="Write a message"
              disabled={disabled}
              error={!!fieldState.error}
              helperText={
                <Box component="span" sx={{ display: 'flex', gap: 1 }}>
                  <span style={{ flex: 1 }}>{fieldState.error?.message ?? ' '}</span>
                  <span data-testid="message-counter">
                    {text.length}/{MESSAGE_LIMITS.text}
                  </span>
                </Box>
              }
              onChange={(e) => {
                field.onChange(e);
                if (error) setError('');
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  if (!busy) void onSubmit();
                }
              }}
              slotProps={{
                htmlInput: {
                  'aria-label': 'Message',
                  maxLength: MESSAGE_LIMITS.text,
                  'data-testid': 'message-text',
                },
              }}
            />
          )}
        />
        <IconButton
          type="submit"
          color="secondary"
          aria-label="Send"
          disabled={disabled || busy}
          data-testid="message-send"
          sx={{ mb: 3 }}
        >
          {formState.isSubmitting ? (
            <CircularProgress size={22} aria-hidden="true" />
          ) : (
            <SendRoundedIcon />
          )}
        </IconButton>
      </Box>
    </Box>
  );
}
