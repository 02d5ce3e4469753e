import { PlaceholderPage } from './placeholder';

export function EditPage() {
  return <PlaceholderPage title="Edit Blog" />;
}
