import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { registerContactJob } from './contact.service.js';
import { contactRoutes } from './contact.routes.js';

/** The contact form, and the queued job that mails each message. */
export const contactFeature = defineFeature({
  name: 'contact',
  routes: ({ deps }) => [{ visitors: 'anyone', plugin: routes(contactRoutes, deps) }],
  jobs: ({ deps, mail }) => registerContactJob(deps.queue, { db: deps.db, contactTo: deps.config.mail.contactTo, send: mail.send, transport: mail.transport }),
});
