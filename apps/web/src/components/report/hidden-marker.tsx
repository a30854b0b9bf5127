/** What an owner sees on an item moderators hid: only they (and admins) still see it. */
import { REPORT_MSG } from '@bountyhunt/shared/moderation-texts';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOffOutlined';
import Chip from '@mui/material/Chip';

export function HiddenMarker({
  hidden,
  size = 'small',
}: {
  hidden?: boolean;
  size?: 'small' | 'medium';
}) {
  if (!hidden) return null;
  return (
    <Chip
      icon={<VisibilityOffIcon />}
      label={REPORT_MSG.hiddenMarker}
      color="warning"
      variant="outlined"
      size={size}
      data-testid="hidden-marker"
      title="Only you and the moderators can see this."
    />
  );
}
