import Card from 'react-bootstrap/Card';
import type { RemotePost } from '../../../../shared/federation-schema';
import { QueryItems } from '../../../components/query-items';
import { useTimeline } from '../api/get-timeline';
import { ReplyForm } from './reply-form';

const atHandle = (handle: string) => (handle.startsWith('@') ? handle : `@${handle}`);
/** The UTC date, as the blog pages show theirs. */
const dateOf = (iso: string) => iso.split('T')[0] ?? iso;

function RemotePostCard({ post, index }: { post: RemotePost; index: number }) {
  const titleId = `remote-post-${index}`;
  const title = post.title || 'Untitled post';
  const handle = atHandle(post.handle);
  const when = post.publishedAt ?? post.updatedAt;
  return (
    <Card as="article" className="mb-4" aria-labelledby={titleId}>
      <Card.Body>
        <h3 className="h5 mb-1" id={titleId}>
          {post.url ? (
            <a href={post.url} rel="nofollow ugc noopener">
              {title}
            </a>
          ) : (
            title
          )}
        </h3>
        <p className="small text-body-secondary mb-3">
          {post.name ?? handle} <span>({handle})</span>
          {when && (
            <>
              {' · '}
              <time dateTime={when}>{dateOf(when)}</time>
            </>
          )}
        </p>
        {/* Sanitised by the server with the blogs' allow-list when it arrived; inserted as the blog page inserts its own. */}
        <div className="blog-body" dangerouslySetInnerHTML={{ __html: post.html }} />
        <ReplyForm post={post} index={index} />
      </Card.Body>
    </Card>
  );
}

/** The posts of the accounts followed, newest first (the API's order). */
export function RemoteTimeline({ userId }: { userId: string }) {
  const timeline = useTimeline(userId);
  return (
    <QueryItems query={timeline} empty="No posts yet. Posts of the accounts you follow appear here once they publish.">
      {(items) => items.map((post, index) => <RemotePostCard key={post.objectId} post={post} index={index} />)}
    </QueryItems>
  );
}
