import { PlaceholderPage } from './placeholder';

export function SettingsPage() {
  return <PlaceholderPage title="Settings" />;
}
