import type { FreshProofInput } from '../../../../shared/account-schema';
import { apiFetch } from '../../../lib/api-client';

/** `POST /api/account/fresh-proof`: for the next few minutes this session may add a way into the account. */
export const proveFresh = (input: FreshProofInput) => apiFetch<void>('/api/account/fresh-proof', { method: 'POST', body: JSON.stringify(input) });
