import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { isModerator } from '../core/moderators.js';
import type { SessionUser } from '../core/session-user.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors.js';
import { hasSecondFactor, secondFactorTexts } from './second-factor.js';

export interface StaffSecondFactorDeps {
  config: Config;
  db: Kysely<Database>;
  sessions: { optionalUser(request: FastifyRequest): Promise<SessionUser | null> };
}

/** The staff an enrolment is required of: those who may moderate (editors and above, `MODERATOR_EMAILS`). */
export const isStaff = (config: Config, user: SessionUser | null): user is SessionUser => isModerator(config, user);

/** Whether this account must still set up a second factor before using the site. */
export async function mustEnrolSecondFactor({ config, db }: Omit<StaffSecondFactorDeps, 'sessions'>, user: SessionUser | null): Promise<boolean> {
  return config.staffRequireSecondFactor && isStaff(config, user) && !(await hasSecondFactor(db, user.id));
}

/**
 * With `STAFF_REQUIRE_SECOND_FACTOR`, a staff account without a second factor gets 403, with a
 * message saying why (issue 45), from every route of the contexts that apply the rule
 * (`core/visitor-contexts.ts`): the whole API but what enrolling needs, Better Auth's endpoints and
 * reading the account, which `app.ts` registers in contexts without it. Pages send it to Settings.
 */
export function staffSecondFactorRule(deps: StaffSecondFactorDeps) {
  return async (request: FastifyRequest) => {
    if (!deps.config.staffRequireSecondFactor) return;
    if (await mustEnrolSecondFactor(deps, await deps.sessions.optionalUser(request))) {
      throw new AppError(403, 'SECOND_FACTOR_REQUIRED', secondFactorTexts.staffMustEnrol);
    }
  };
}
