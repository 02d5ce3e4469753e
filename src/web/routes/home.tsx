import { PlaceholderPage } from './placeholder';

export function HomePage() {
  return <PlaceholderPage title="Home" />;
}
