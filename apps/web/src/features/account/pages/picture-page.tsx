import { ACCOUNT_MSG, ACCOUNT_SUCCESS } from '@bountyhunt/shared/account';
import { useState } from 'react';
import { mediaUrl } from '../../../components/media/media-url';
import { useSession } from '../../../lib/session';
import { putPicture } from '../api/update-picture';
import { formError, useFormFlow } from '../components/form-flow';
import { ImageUpload } from '../components/image-upload';
import { SettingsForm } from '../components/settings-form';

/** /account/picture: 'Set Your Profile Picture', Upload Photo, Submit Profile Picture (SPEC.md §2). */
export default function PicturePage() {
  const { hunter, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.picture);
  const [key, setKey] = useState<string | null>(null);
  const current = hunter?.picture ? mediaUrl(hunter.picture, 'thumb') : null;

  const onSubmit = () =>
    flow.submit(async () => {
      if (!key) return ACCOUNT_MSG.pictureRequired;
      const res = await putPicture(key);
      if (res.status === 200) {
        update({ hunter: res.data });
        return null;
      }
      return formError(res, (s) => ACCOUNT_MSG.settingOther('profile picture', s));
    });

  return (
    <SettingsForm
      title="Set Your Profile Picture"
      intro="A clear, friendly picture helps members recognise you. It is cropped to a square."
      flow={flow}
      submitLabel="Submit Profile Picture"
      onSubmit={onSubmit}
      skippable
    >
      <ImageUpload
        label="Upload Photo"
        currentUrl={current}
        testId="picture-file"
        onChange={(k) => {
          setKey(k);
          flow.clearError();
        }}
        onError={(status) => flow.setError(ACCOUNT_MSG.settingOther('profile picture', status))}
      />
    </SettingsForm>
  );
}
