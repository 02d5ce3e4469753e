import { z } from 'zod';

/** One page of a list the API pages through: its items, which page it is, its size and whether another follows. */
export function pageSchemaOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
  });
}

/**
 * A page whose answer never carried its size (/admin's People and Subscribers): the same shape
 * without `pageSize`, its fields in the same order, so the answers stay as they were.
 */
export function pageWithoutSizeSchemaOf<Item extends z.ZodType>(item: Item) {
  return pageSchemaOf(item).omit({ pageSize: true });
}
