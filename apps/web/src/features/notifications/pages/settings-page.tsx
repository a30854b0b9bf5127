/** /account/notifications: for every notification type, in the app and by e-mail. */
import {
  NOTIFICATION_LABELS,
  NOTIFICATION_TYPES,
  type NotificationSetting,
  type NotificationType,
} from '@bountyhunt/shared/live';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useFeedback } from '../../../lib/feedback';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/settings';

type Settings = Record<NotificationType, { inApp: boolean; email: boolean }>;

function toMap(list: NotificationSetting[]): Settings {
  const out = {} as Settings;
  for (const type of NOTIFICATION_TYPES) {
    const s = list.find((x) => x.type === type);
    out[type] = { inApp: s?.inApp ?? true, email: s?.email ?? false };
  }
  return out;
}

export default function NotificationSettingsPage() {
  const { data: res, isPending } = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const { notify } = useFeedback();
  // The saved settings, with the switches changed since.
  const [edits, setEdits] = useState<Partial<Settings>>({});
  const saved = res?.status === 200 ? toMap(res.data.settings) : null;
  const values: Settings | null = saved ? { ...saved, ...edits } : null;
  const dirty =
    !!saved &&
    !!values &&
    NOTIFICATION_TYPES.some(
      (t) => saved[t].inApp !== values[t].inApp || saved[t].email !== values[t].email,
    );

  async function submit() {
    if (!values) return;
    const result = await save.mutateAsync({
      settings: NOTIFICATION_TYPES.map((type) => ({ type, ...values[type] })),
    });
    if (result.status === 200) {
      setEdits({});
      notify('Your notification settings were saved.', 'success');
    } else notify(result.message || `Error saving settings (${result.status})`, 'error');
  }

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', px: 2, py: { xs: 3, sm: 6 } }}>
      <Button
        component={RouterLink}
        to="/account"
        color="inherit"
        startIcon={<ArrowBackIcon />}
        sx={{ mb: 1 }}
      >
        Settings
      </Button>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 1 }}>
        Notifications
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2.5 }}>
        Choose what you hear about, in the app and by e-mail.
      </Typography>
      {isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label="Loading settings" />
        </Box>
      )}
      {res && res.status !== 200 && (
        <Alert severity="error">{`Error loading settings: ${res.status}`}</Alert>
      )}
      {values && (
        <Paper sx={{ overflow: 'hidden' }}>
          <Box
            component="table"
            sx={{
              width: '100%',
              borderCollapse: 'collapse',
              '& th, & td': { px: 2, py: 1.25, textAlign: 'left' },
              '& tbody tr': { borderTop: '1px solid rgba(255,255,255,0.08)' },
              '& .col': { width: 88, textAlign: 'center' },
            }}
          >
            <caption style={visuallyHidden}>Notification settings</caption>
            <thead>
              <tr>
                <Typography
                  component="th"
                  variant="overline"
                  color="secondary"
                  scope="col"
                  sx={{ fontWeight: 700 }}
                >
                  Notify me when
                </Typography>
                <Typography
                  component="th"
                  variant="overline"
                  scope="col"
                  className="col"
                  sx={{ fontWeight: 700 }}
                >
                  In app
                </Typography>
                <Typography
                  component="th"
                  variant="overline"
                  scope="col"
                  className="col"
                  sx={{ fontWeight: 700 }}
                >
                  E-mail
                </Typography>
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_TYPES.map((type) => (
                <tr key={type} data-testid={`setting-${type}`}>
                  <th scope="row" style={{ fontWeight: 400 }}>
                    {NOTIFICATION_LABELS[type]}
                  </th>
                  {(['inApp', 'email'] as const).map((channel) => (
                    <td key={channel} className="col">
                      <Switch
                        checked={values[type][channel]}
                        // New messages always show in the app: the Messages badge counts them.
                        disabled={type === 'message' && channel === 'inApp'}
                        color="secondary"
                        onChange={(e) =>
                          setEdits((x) => ({
                            ...x,
                            [type]: { ...values[type], [channel]: e.target.checked },
                          }))
                        }
                        slotProps={{
                          input: {
                            'aria-label': `${NOTIFICATION_LABELS[type]}: ${channel === 'inApp' ? 'in app' : 'e-mail'}`,
                            // @ts-expect-error data attributes are passed through
                            'data-testid': `switch-${type}-${channel}`,
                          },
                        }}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Box>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, p: 2 }}>
            <Button
              variant="contained"
              disabled={!dirty || save.isPending}
              onClick={() => void submit()}
              data-testid="notification-settings-save"
            >
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
