import type { Config } from '../config.js';
import type { SessionUser } from './session-user.js';
import { may } from './access.js';

/**
 * Moderators are editors and above (issue 44), and the accounts `MODERATOR_EMAILS` names (at
 * least editors); their context in `app.ts` asks it (as `{ moderation: 'moderate' }`) on every moderation request.
 */
export function isModerator(config: Config, user: SessionUser | null): user is SessionUser {
  return may(config, user, { moderation: 'moderate' });
}
