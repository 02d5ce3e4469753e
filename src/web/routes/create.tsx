import { PlaceholderPage } from './placeholder';

export function CreatePage() {
  return <PlaceholderPage title="Create a Blog" />;
}
