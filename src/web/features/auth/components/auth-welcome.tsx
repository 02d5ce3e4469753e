import { WelcomeCarousel } from './welcome-carousel';

/** /auth for a signed-in user. */
export function AuthWelcome({ email }: { email: string }) {
  return (
    <div className="mx-auto" style={{ maxWidth: 900 }}>
      <h1 className="h3 text-break">Welcome {email}</h1>
      <p className="lead">What would you like to do today?</p>
      <WelcomeCarousel />
    </div>
  );
}
