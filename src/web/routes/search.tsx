import { PlaceholderPage } from './placeholder';

export function SearchPage() {
  return <PlaceholderPage title="Search" />;
}
