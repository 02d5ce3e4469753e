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

/** The staff (until roles exist, the moderators) an enrolment is required of. */
export const isStaff = (config: Config, user: SessionUser | null): user is SessionUser => isModerator(config, user);

/** Whether this account must still set up a second factor before using the site. */
export async function mustEnrolSecondFactor({ config, db }: Omit<StaffSecondFactorDeps, 'sessions'>, user: SessionUser | null): Promise<boolean> {
  return config.staffRequireSecondFactor && isStaff(config, user) && !(await hasSecondFactor(db, user.id));
}

/** What the account needs to enrol stays open: Better Auth's endpoints, and reading the account. */
const enrolmentPath = (request: FastifyRequest) => {
  const path = request.url.split('?')[0]!;
  return path.startsWith('/api/auth/') || (request.method === 'GET' && path === '/api/account');
};

/**
 * With `STAFF_REQUIRE_SECOND_FACTOR`, a staff account without a second factor gets 403 from every
 * API call but its enrolment's, with a message saying why (issue 45). Pages send it to Settings.
 */
export function staffSecondFactorGuard(deps: StaffSecondFactorDeps) {
  return async (request: FastifyRequest) => {
    if (!deps.config.staffRequireSecondFactor || !request.url.startsWith('/api/') || enrolmentPath(request)) return;
    if (await mustEnrolSecondFactor(deps, await deps.sessions.optionalUser(request))) {
      throw new AppError(403, 'SECOND_FACTOR_REQUIRED', secondFactorTexts.staffMustEnrol);
    }
  };
}
