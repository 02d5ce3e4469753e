import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { messages } from '../../shared/messages';
import { errorMessage } from '../lib/api-client';

export interface QueryItemsProps<Item> {
  /** A query whose answer is `{ items }`. */
  query: UseQueryResult<{ items: Item[] }>;
  /** Said when there are no items. */
  empty: ReactNode;
  /** The items, when there are some. */
  children: (items: Item[]) => ReactNode;
}

/**
 * A part of a page that lists what one query answers: a small spinner while it loads, its error
 * as an alert, the `empty` sentence when there is nothing, else the items as `children` shows them.
 */
export function QueryItems<Item>({ query, empty, children }: QueryItemsProps<Item>) {
  if (query.isPending) {
    return (
      <Spinner animation="border" size="sm" role="status">
        <span className="visually-hidden">{messages.loading}</span>
      </Spinner>
    );
  }
  if (query.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {errorMessage(query.error)}
      </p>
    );
  }
  const { items } = query.data;
  if (items.length === 0) return <p className="mb-0">{empty}</p>;
  return children(items);
}
