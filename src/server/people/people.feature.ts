import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { accessRoutes } from './access.routes.js';
import { invitationRoutes } from './invitations.routes.js';
import { ownershipRoutes, peopleRoutes } from './people.routes.js';

/** People and roles: accepting an invitation, one's own permissions, managing accounts, handing the site over. */
export const peopleFeature = defineFeature({
  name: 'people',
  routes: ({ deps, suspendAccount }) => {
    const peopleDeps = { ...deps, suspendAccount };
    return [
      { visitors: 'anyone', plugin: routes(invitationRoutes, deps) },
      { visitors: 'signed-in', plugin: routes(accessRoutes, deps) },
      { visitors: 'people', plugin: routes(peopleRoutes, peopleDeps) },
      { visitors: 'ownership', plugin: routes(ownershipRoutes, peopleDeps) },
    ];
  },
});
