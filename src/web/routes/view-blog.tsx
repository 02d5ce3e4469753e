import { PlaceholderPage } from './placeholder';

export function ViewBlogPage() {
  return <PlaceholderPage title="Blog" />;
}
