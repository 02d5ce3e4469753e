import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import type { BlogSummary } from '../../../../shared/blog-schema';
import { paths } from '../../../../shared/paths';
import { DRAFT_TEXTS, scheduledTime } from '../draft-texts';
import { createdDate } from './blog-dates';
import '../../../styles/bootstrap-list-group.scss';

/** The viewer's drafts: title, when last changed, and a link to go on writing each. */
export function DraftList({ drafts }: { drafts: BlogSummary[] }) {
  if (drafts.length === 0) return <p>{DRAFT_TEXTS.noDrafts}</p>;
  return (
    <ListGroup as="ul" aria-label={DRAFT_TEXTS.myDrafts}>
      {drafts.map((draft) => (
        <ListGroup.Item as="li" key={draft.id} className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <div>
            <h2 className="h6 mb-1">
              {draft.title || DRAFT_TEXTS.untitled}
              {draft.submittedAt && (
                <Badge bg="warning" text="dark" className="ms-2 align-middle">
                  {DRAFT_TEXTS.submittedBadge}
                </Badge>
              )}
            </h2>
            <small className="text-body-secondary">
              {DRAFT_TEXTS.updated} <time dateTime={draft.updatedAt}>{createdDate(draft.updatedAt)}</time>
            </small>
            {draft.publishAt && (
              <small className="d-block text-info-emphasis">
                <time dateTime={draft.publishAt}>{DRAFT_TEXTS.scheduledFor(scheduledTime(draft.publishAt))}</time>
              </small>
            )}
          </div>
          <Link className="btn btn-outline-primary btn-sm" to={paths.edit(draft.id)} aria-label={`${DRAFT_TEXTS.edit} ${draft.title || DRAFT_TEXTS.untitled}`}>
            {DRAFT_TEXTS.edit}
          </Link>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
