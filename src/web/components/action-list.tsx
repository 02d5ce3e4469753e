import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { messages } from '../../shared/messages';
import { errorMessage } from '../lib/api-client';
import { QueryItems, type QueryItemsProps } from './query-items';

export interface ActionListItemProps {
  /** What the item shows, beside its button. */
  children: ReactNode;
  /** The button's text. */
  action: string;
  /** The button's accessible name, which says what it acts on. */
  actionLabel: string;
  onAction: () => void;
  /** The mutation the button runs: the button waits while it is pending; its error shows in the item. */
  mutation: { isPending: boolean; isError: boolean; error: unknown };
}

/** An item of a list of the reader's own things, with the button that ends it (unfollow, remove). */
export function ActionListItem({ children, action, actionLabel, onAction, mutation }: ActionListItemProps) {
  return (
    <ListGroup.Item as="li" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      <div>
        {children}
        {mutation.isError && (
          <p className="text-danger small mb-0" role="alert">
            {errorMessage(mutation.error)}
          </p>
        )}
      </div>
      <Button size="sm" variant="outline-danger" disabled={mutation.isPending} aria-label={actionLabel} onClick={onAction}>
        {mutation.isPending ? messages.loading : action}
      </Button>
    </ListGroup.Item>
  );
}

export interface ActionListProps<Item> extends Omit<QueryItemsProps<Item>, 'children'> {
  /** The list's accessible name. */
  label: string;
  /** One item, keyed: an `ActionListItem`. */
  children: (item: Item) => ReactNode;
}

/** The reader's own things that one query answers, as a list of `ActionListItem`s (or why there are none). */
export function ActionList<Item>({ label, children, ...query }: ActionListProps<Item>) {
  return (
    <QueryItems {...query}>
      {(items) => (
        <ListGroup as="ul" aria-label={label}>
          {items.map(children)}
        </ListGroup>
      )}
    </QueryItems>
  );
}
