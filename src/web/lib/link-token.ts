import { useSearchParams } from 'react-router';

/** The `token` of an e-mail link's query string (`?token=`), or '' when it has none. */
export const tokenOf = (url: URL): string => url.searchParams.get('token') ?? '';

/** The `token` of the page's own address, for the screens an e-mail's link opens. */
export function useLinkToken(): string {
  const [searchParams] = useSearchParams();
  return searchParams.get('token') ?? '';
}
