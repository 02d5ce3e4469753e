import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { accountEnrolmentRoutes, accountRoutes, accountSignedInRoutes } from './account.routes.js';
import type { AuthAppDeps } from './auth.js';
import { authRoutes } from './auth.routes.js';

/** Signing in and the account: Better Auth's endpoints, the account's settings, enrolling a second factor. */
export const authFeature = defineFeature<AuthAppDeps>({
  name: 'auth',
  routes: ({ deps }) => [
    { visitors: 'anyone, outside the API', plugin: routes(authRoutes, deps) },
    { visitors: 'anyone', plugin: routes(accountRoutes, deps) },
    { visitors: 'signed-in, enrolling', plugin: routes(accountEnrolmentRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(accountSignedInRoutes, deps) },
  ],
});
