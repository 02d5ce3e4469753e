import { PlaceholderPage } from './placeholder';

export function AiPage() {
  return <PlaceholderPage title="AI Blog Generator" />;
}
