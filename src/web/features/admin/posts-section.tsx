import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths';
import { POST_STATUS_LABELS, postStatusSchema, type PostAuthor, type PostRow, type PostStatus, type PostsQuery } from '../../../shared/posts-schema';
import { LoadingPage } from '../../components/loading-page';
import { confirmIrreversible, useDialog } from '../../components/message-dialog';
import { Pager } from '../../components/pager';
import { errorMessage } from '../../lib/api-client';
import { useDeletePost, usePostAuthors, usePosts, useSetPostStatus } from './api/posts';
// Its table and selects, wherever it is shown (/admin/posts, and My Drafts' 'All my blogs').
import '../../styles/bootstrap-tables.scss';
import '../../styles/bootstrap-form-select.scss';

const STATUS_VARIANT: Record<PostStatus, string> = {
  draft: 'secondary',
  submitted: 'warning',
  scheduled: 'info',
  published: 'success',
  hidden: 'dark',
};

/** A status in words, as a badge with text a screen reader reads as it is. */
export function PostStatusBadge({ status }: { status: PostStatus }) {
  return (
    <Badge bg={STATUS_VARIANT[status]} text={status === 'submitted' || status === 'scheduled' ? 'dark' : undefined}>
      {POST_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * Posts (issue 59): every blog for editors and above (/admin/posts), the visitor's own for authors
 * and contributors ('All my blogs' on My Drafts): title, author, status in words, last change;
 * filters, a search in titles, pages of 20; per row only the actions the server says the
 * visitor may take.
 */
export function PostsSection({ own = false }: { own?: boolean }) {
  const [query, setQuery] = useState<PostsQuery>(own ? { page: 1, mine: 'true' } : { page: 1 });
  const [search, setSearch] = useState('');
  const [author, setAuthor] = useState('');
  const [tag, setTag] = useState('');
  const posts = usePosts(query);
  const heading = own ? 'All my blogs' : 'Posts';
  const headingId = own ? 'my-posts-heading' : 'posts-heading';
  const filter = (next: Partial<PostsQuery>) => setQuery((current) => ({ ...current, ...next, page: 1 }));
  const applyText = (event: FormEvent) => {
    event.preventDefault();
    filter({ q: search.trim() || undefined, author: author || undefined, tag: tag.trim() || undefined });
  };
  const everyBlog = !own && posts.data?.scope === 'all';
  const writers = usePostAuthors(everyBlog);
  const authors = everyBlog ? authorsOf(writers.data?.items ?? [], query.author) : [];

  return (
    <section id="posts" aria-labelledby={headingId} className="mb-5">
      <h2 id={headingId} className="h4">
        {heading}
      </h2>
      <Form onSubmit={applyText} className="mb-3" role="search" aria-label={`Filter ${heading.toLowerCase()}`}>
        <Row className="g-3 align-items-end">
          <Col xs={12} md={3}>
            <Form.Group controlId={`${headingId}-status`}>
              <Form.Label>Status</Form.Label>
              <Form.Select value={query.status ?? ''} onChange={(event) => filter({ status: postStatusSchema.safeParse(event.target.value).data })}>
                <option value="">Any status</option>
                {postStatusSchema.options.map((status) => (
                  <option key={status} value={status}>
                    {POST_STATUS_LABELS[status]}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          {!own && (
            <Col xs={12} md={3}>
              <Form.Group controlId={`${headingId}-author`}>
                <Form.Label>Author</Form.Label>
                <Form.Select
                  value={author}
                  onChange={(event) => {
                    setAuthor(event.target.value);
                    filter({ author: event.target.value || undefined });
                  }}
                >
                  <option value="">Any author</option>
                  {authors.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name} ({person.email})
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
          )}
          <Col xs={12} md={2}>
            <Form.Group controlId={`${headingId}-tag`}>
              <Form.Label>Tag</Form.Label>
              <Form.Control value={tag} onChange={(event) => setTag(event.target.value)} />
            </Form.Group>
          </Col>
          <Col xs={12} md={own ? 5 : 3}>
            <Form.Group controlId={`${headingId}-search`}>
              <Form.Label>Search titles</Form.Label>
              <Form.Control type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
            </Form.Group>
          </Col>
          <Col xs={12} md={1}>
            <Button type="submit" variant="outline-primary" className="w-100">
              Search
            </Button>
          </Col>
        </Row>
      </Form>
      {posts.isPending ? (
        <LoadingPage />
      ) : posts.isError ? (
        <p className="text-danger">The list could not be loaded. {errorMessage(posts.error)}</p>
      ) : posts.data.items.length === 0 ? (
        <p className="text-body-secondary">No blogs match.</p>
      ) : (
        <>
          <Table responsive size="sm" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Title</th>
                {posts.data.scope === 'all' && <th scope="col">Author</th>}
                <th scope="col">Status</th>
                <th scope="col">Last change</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {posts.data.items.map((row) => (
                <PostLine key={row.id} row={row} showAuthor={posts.data.scope === 'all'} />
              ))}
            </tbody>
          </Table>
          {(query.page > 1 || posts.data.hasMore) && <Pager page={query.page} hasMore={posts.data.hasMore} onPageChange={(page) => setQuery((current) => ({ ...current, page }))} />}
        </>
      )}
    </section>
  );
}

/** Every writer who has a blog, by name as the server orders them (and the one filtered by, should the list be cut before them), for the 'Author' filter. */
function authorsOf(writers: PostAuthor[], selected: string | undefined): PostAuthor[] {
  if (!selected || writers.some((writer) => writer.id === selected)) return writers;
  return [...writers, { id: selected, name: 'The chosen author', handle: null, email: '…' }];
}

function PostLine({ row, showAuthor }: { row: PostRow; showAuthor: boolean }) {
  const setStatus = useSetPostStatus();
  const remove = useDeletePost();
  const showDialog = useDialog();
  const title = row.title || '(untitled)';
  const fail = (error: unknown) => void showDialog({ title: 'Error', message: errorMessage(error) });
  const change = (status: 'published' | 'draft') => setStatus.mutate({ id: row.id, status }, { onError: fail });
  const confirmDelete = async () => {
    if (await showDialog(confirmIrreversible('Delete this blog?', `“${title}” and its image are deleted for good.`, 'Delete'))) remove.mutate(row.id, { onError: fail });
  };
  const busy = setStatus.isPending || remove.isPending;
  return (
    <tr>
      <td className="text-break">{row.status === 'published' ? <Link to={paths.blog(row.slug)}>{title}</Link> : title}</td>
      {showAuthor && (
        <td>
          {row.author.name}
          <div className="small text-body-secondary text-break">{row.author.email}</div>
        </td>
      )}
      <td>
        <PostStatusBadge status={row.status} />
      </td>
      <td>
        <time dateTime={row.updatedAt}>{new Date(row.updatedAt).toLocaleString()}</time>
      </td>
      <td>
        <div className="d-flex flex-wrap gap-2 justify-content-end">
          {row.actions.edit && (
            <Link className="btn btn-outline-primary btn-sm" to={paths.edit(row.id)} aria-label={`Edit ${title}`}>
              Edit
            </Link>
          )}
          {row.actions.publish && (
            <Button size="sm" variant="outline-success" disabled={busy} onClick={() => change('published')} aria-label={`Publish ${title}`}>
              Publish
            </Button>
          )}
          {row.actions.unpublish && (
            <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => change('draft')} aria-label={`Unpublish ${title}`}>
              Unpublish
            </Button>
          )}
          {row.actions.delete && (
            <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => void confirmDelete()} aria-label={`Delete ${title}`}>
              Delete
            </Button>
          )}
        </div>
      </td>
    </tr>
  );
}
