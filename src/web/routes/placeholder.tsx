import { messages } from '../../shared/messages';

/** A screen whose feature has not landed yet: it still answers at its route. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <div className="py-4">
      <h1 className="h3">{title}</h1>
      <p>{messages.loading}</p>
    </div>
  );
}
