import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ActionList, ActionListItem } from '../../../components/action-list';
import { FormField } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { useAuthClient } from '../../../lib/session';
import { authErrorMessage } from '../auth-texts';
import { useFreshProof, type ProofMeans } from '../use-fresh-proof';
import { ErrorNotice } from './form-notices';
import '../../../styles/bootstrap-list-group.scss';

interface Passkey {
  id: string;
  name?: string | null;
  createdAt: string | Date;
}

const passkeysKey = (userId: string) => ['passkeys', userId];
const added = (date: string | Date) => new Date(date).toLocaleDateString('en-US', { dateStyle: 'medium' });

/** The account's passkeys through Better Auth's `/api/auth/passkey/…` endpoints. */
function usePasskeys(userId: string, means: ProofMeans) {
  const loadAuth = useAuthClient();
  const withFreshProof = useFreshProof(means);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: passkeysKey(userId),
    queryFn: async () => {
      const { authClient, authCall } = await loadAuth();
      return { items: (await authCall(authClient.passkey.listUserPasskeys())) as Passkey[] };
    },
  });
  const refetch = () => queryClient.invalidateQueries({ queryKey: passkeysKey(userId) });
  const add = useMutation({
    mutationFn: (name: string) =>
      withFreshProof(async () => {
        const { authClient } = await loadAuth();
        const result = await authClient.passkey.addPasskey({ name });
        if (!result?.error) return;
        const { error } = result;
        const status = 'status' in error && typeof error.status === 'number' ? error.status : 0;
        throw new ApiError(status, ('code' in error ? error.code : undefined) ?? 'PASSKEY_NOT_ADDED', error.message ?? 'The passkey was not added.');
      }),
    onSuccess: refetch,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      const { authClient, authCall } = await loadAuth();
      await authCall(authClient.passkey.deletePasskey({ id }));
    },
    onSuccess: refetch,
  });
  return { list, add, remove };
}

/** Settings: add a named passkey (this device's, or a security key), see them, remove one. */
export function PasskeySettings({ userId, ...means }: { userId: string } & ProofMeans) {
  const { list, add, remove } = usePasskeys(userId, means);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Give the passkey a name, such as the device it is on.');
      return;
    }
    setNameError(null);
    add.mutate(trimmed, { onSuccess: () => setName('') });
  };
  return (
    <>
      <ActionList query={list} empty="No passkeys yet." label="Your passkeys">
        {(passkey) => (
          <ActionListItem
            key={passkey.id}
            action="Remove"
            actionLabel={`Remove passkey ${passkey.name ?? ''}`.trim()}
            onAction={() => remove.mutate(passkey.id)}
            mutation={remove}
          >
            <div>{passkey.name || 'Passkey'}</div>
            <div className="small text-body-secondary">added {added(passkey.createdAt)}</div>
          </ActionListItem>
        )}
      </ActionList>
      <Form noValidate onSubmit={submit} className="mt-3" aria-label="Add a passkey">
        <FormField id="passkey-name" label="Passkey name" value={name} onChange={setName} invalid={nameError} maxLength={60} />
        <Button type="submit" variant="outline-primary" disabled={add.isPending}>
          {add.isPending ? 'Waiting for your passkey ...' : 'Add a passkey'}
        </Button>
        <ErrorNotice message={add.isError ? authErrorMessage(add.error) : null} />
      </Form>
    </>
  );
}
