import { ACCOUNT_LIMITS, ACCOUNT_MSG, ACCOUNT_SUCCESS } from '@bountyhunt/shared/account';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { putBio } from '../api/update-bio';
import { formError, useFormFlow } from '../components/form-flow';
import { SettingsForm } from '../components/settings-form';

/** /account/bio: 'Create Your Biography', Update Biography, Skip for Now (SPEC.md §2). */
export default function BioPage() {
  const { hunter, update } = useSession();
  const flow = useFormFlow(ACCOUNT_SUCCESS.bio);
  const [bio, setBio] = useState(() => hunter?.bio ?? '');

  const onSubmit = () =>
    flow.submit(async () => {
      const res = await putBio(bio);
      if (res.status === 200) {
        update({ hunter: res.data });
        return null;
      }
      return formError(res, (s) => ACCOUNT_MSG.settingOther('biography', s));
    });

  return (
    <SettingsForm
      title="Create Your Biography"
      intro="Tell members who you are and what you hunt."
      flow={flow}
      submitLabel="Update Biography"
      onSubmit={onSubmit}
      skippable
    >
      <TextField
        color="secondary"
        label="Biography"
        name="bio"
        value={bio}
        multiline
        minRows={4}
        autoFocus
        onChange={(e) => {
          setBio(e.target.value.slice(0, ACCOUNT_LIMITS.bio));
          flow.clearError();
        }}
        helperText={`${bio.length}/${ACCOUNT_LIMITS.bio}`}
        slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.bio, 'data-testid': 'bio-input' } }}
      />
    </SettingsForm>
  );
}
