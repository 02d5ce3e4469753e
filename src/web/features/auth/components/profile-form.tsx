import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import { profileInputSchema, profileTexts, type OwnProfile } from '../../../../shared/profile-schema';
import { FormField } from '../../../components/form-field';
import { LoadingPage } from '../../../components/loading-page';
import { errorMessage } from '../../../lib/api-client';
import { useProfile, useSaveProfile } from '../api/profile';
import { ErrorNotice, SuccessNotice } from './form-notices';
import { firstErrorPerField } from '../../../lib/field-errors';

type Field = 'handle' | 'displayName' | 'bio';

export const profileFormTexts = {
  handleLabel: 'Handle',
  handleHelp: '3 to 30 lowercase letters a–z, digits and _. Your author page and the fediverse show it as @handle; people who follow you from other sites follow that address, so changing it makes them lose you.',
  handleFromEmail: 'Your handle was made from your e-mail address when you first signed in. You can change it here.',
  displayNameLabel: 'Display name',
  bioLabel: 'Bio',
  save: 'Save',
  authorPage: 'See your author page',
} as const;

/** Settings' 'Profile': the handle, display name and bio the author page shows. */
export function ProfileSection({ userId }: { userId: string }) {
  const profile = useProfile(userId);
  if (profile.isPending) return <LoadingPage />;
  if (profile.isError) return <ErrorNotice message={errorMessage(profile.error)} />;
  return <ProfileForm userId={userId} profile={profile.data} />;
}

function ProfileForm({ userId, profile }: { userId: string; profile: OwnProfile }) {
  const [values, setValues] = useState({ handle: profile.handle, displayName: profile.displayName ?? '', bio: profile.bio ?? '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSaveProfile(userId);
  const set = (field: Field) => (value: string) => {
    setSaved(false);
    setValues((current) => ({ ...current, [field]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    setSaved(false);
    const parsed = profileInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(firstErrorPerField<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(parsed.data);
      setValues({ handle: answer.handle, displayName: answer.displayName ?? '', bio: answer.bio ?? '' });
      setSaved(true);
    } catch (err) {
      setServerError(errorMessage(err));
    }
  };

  const current = save.data ?? profile;
  return (
    <Form noValidate onSubmit={(event) => void submit(event)} aria-labelledby="profile-heading">
      {current.handleFromEmail && <p className="text-body-secondary">{profileFormTexts.handleFromEmail}</p>}
      <FormField
        id="profile-handle"
        label={profileFormTexts.handleLabel}
        value={values.handle}
        onChange={set('handle')}
        invalid={errors.handle}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
      />
      <Form.Text as="p" className="mt-n2 mb-3">
        {profileFormTexts.handleHelp}
      </Form.Text>
      <FormField id="profile-display-name" label={profileFormTexts.displayNameLabel} value={values.displayName} onChange={set('displayName')} invalid={errors.displayName} autoComplete="nickname" />
      <FormField id="profile-bio" label={profileFormTexts.bioLabel} as="textarea" rows={3} value={values.bio} onChange={set('bio')} invalid={errors.bio} />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? messages.loading : profileFormTexts.save}
        </Button>
        <Link to={paths.author(userId)}>{profileFormTexts.authorPage}</Link>
      </div>
      <SuccessNotice message={saved ? profileTexts.saved : null} />
      <ErrorNotice message={serverError} />
    </Form>
  );
}
