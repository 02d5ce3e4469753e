import type { ComponentType } from 'react';
import { PagesSection } from '../features/site-pages/components/pages-section';
import { AuditLogSection } from '../features/admin/audit-log-section';
import { IntegrationsSection } from '../features/admin/integrations-section';
import { OutboxSection } from '../features/admin/outbox-section';
import { PeopleSection } from '../features/admin/people-section';
import { PostsSection } from '../features/admin/posts-section';
import { SiteSection } from '../features/admin/site-section';
import { SubscribersSection } from '../features/admin/subscribers-section';

export interface AdminSection {
  /** Its address: `/admin/<id>`. */
  id: string;
  title: string;
  /** Who may see it (`resource:action`, as `/api/access` lists them); the server checks its API again. */
  permission: string;
  /** Only while mail goes to the outbox (the Outbox). */
  onlyWithOutbox?: boolean;
  Component: ComponentType;
}

/**
 * /admin's sections (issue 59), in the navigation's order (a route composes the features' sections): the one list the page, its navigation
 * and its addresses are made from. `/admin` itself shows the first one the visitor may see.
 */
export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { id: 'site', title: 'Site', permission: 'site:manage', Component: SiteSection },
  { id: 'pages', title: 'Pages', permission: 'site:manage', Component: PagesSection },
  { id: 'people', title: 'People', permission: 'people:manage', Component: PeopleSection },
  { id: 'posts', title: 'Posts', permission: 'blog:editAny', Component: PostsSection },
  { id: 'subscribers', title: 'Subscribers', permission: 'site:manage', Component: SubscribersSection },
  { id: 'integrations', title: 'Integrations', permission: 'site:manage', Component: IntegrationsSection },
  { id: 'audit-log', title: 'Audit log', permission: 'site:manage', Component: AuditLogSection },
  { id: 'outbox', title: 'Outbox', permission: 'site:manage', onlyWithOutbox: true, Component: OutboxSection },
];

/** The sections this visitor may see, in order. */
export function visibleAdminSections(can: (permission: string) => boolean, mailToOutbox: boolean): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => can(section.permission) && (!section.onlyWithOutbox || mailToOutbox));
}
