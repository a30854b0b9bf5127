import Avatar from '@mui/material/Avatar';
import { mediaUrl } from '../../../components/media/media-url';

/** The other party's picture (hunters), or their handle's first letter. */
export function PeerAvatar({
  handle,
  picture,
  size = 44,
}: {
  handle: string | null;
  picture: string | null;
  size?: number;
}) {
  return (
    <Avatar
      src={picture ? mediaUrl(picture, 'thumb') : undefined}
      alt=""
      sx={{ width: size, height: size, bgcolor: 'rgba(255,255,255,0.16)', color: 'text.primary' }}
    >
      {(handle ?? '?').slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
