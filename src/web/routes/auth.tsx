import { PlaceholderPage } from './placeholder';

export function AuthPage() {
  return <PlaceholderPage title="Login or Register" />;
}
