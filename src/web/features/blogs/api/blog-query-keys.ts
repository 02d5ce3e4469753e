/** Every blog query key, built here so mutations invalidate exactly what the queries use. */
export const blogQueryKeys = {
  all: ['blogs'] as const,
  lists: () => [...blogQueryKeys.all, 'list'] as const,
  list: (page: number) => [...blogQueryKeys.lists(), page] as const,
  details: () => [...blogQueryKeys.all, 'detail'] as const,
  detail: (id: string) => [...blogQueryKeys.details(), id] as const,
};
