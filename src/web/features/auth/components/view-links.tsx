import { paths } from '../../../../shared/paths';
import { Link } from 'react-router';
import { authTexts } from '../auth-texts';

export type FormView = 'sign_in' | 'sign_up' | 'forgotten_password' | 'magic_link' | 'verify_otp' | 'update_password' | 'two_factor';
export const FORM_VIEWS: readonly FormView[] = ['sign_in', 'sign_up', 'forgotten_password', 'magic_link', 'verify_otp', 'update_password', 'two_factor'];

const LINK_TEXT: Record<Exclude<FormView, 'update_password' | 'two_factor'>, string> = {
  sign_in: authTexts.signIn.link,
  sign_up: authTexts.signUp.link,
  forgotten_password: authTexts.forgottenPassword.link,
  magic_link: authTexts.magicLink.link,
  verify_otp: authTexts.verifyOtp.link,
};

/** Links to the other views; the view lives in the URL, so Back and a shared link work too. */
export function ViewLinks({ to }: { to: Array<keyof typeof LINK_TEXT> }) {
  return (
    <nav aria-label="Other ways to sign in" className="mt-3 d-flex flex-column align-items-center gap-1">
      {to.map((view) => (
        <Link key={view} to={paths.auth(view)} className="small">
          {LINK_TEXT[view]}
        </Link>
      ))}
    </nav>
  );
}
