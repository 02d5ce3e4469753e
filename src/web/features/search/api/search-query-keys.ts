/** Every search query key, built here so mutations invalidate exactly what the queries use. */
export const searchQueryKeys = {
  all: ['search'] as const,
  page: (searchTerm: string, page: number) => [...searchQueryKeys.all, searchTerm, page] as const,
};
