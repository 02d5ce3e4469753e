import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Carousel from 'react-bootstrap/Carousel';
import { Link, useNavigate } from 'react-router';
import { useAuthClient } from '../../../lib/session';
import './welcome-carousel.css';

/** The spec's carousel: 5000 ms per slide, wrapping; react-bootstrap's swipe threshold is the spec's 40 px. */
export const SLIDE_INTERVAL_MS = 5000;

interface Slide {
  title: string;
  text: string;
  image: string;
  alt: string;
  to?: string;
}

const SLIDES: Slide[] = [
  { title: 'Home', text: 'Go to home page to see other peoples blogs!', to: '/', image: '/carousel/home.svg', alt: 'Three blog cards side by side' },
  {
    title: 'Create a Blog',
    text: 'Create a new blog and share something great with the World!',
    to: '/create',
    image: '/carousel/create.svg',
    alt: 'A pencil writing on a blank page',
  },
  { title: 'About', text: 'Go to the about page to learn more about us!', to: '/about', image: '/carousel/about.svg', alt: 'An information sign' },
  { title: 'Support', text: 'Go to the support page to contact us!', to: '/support', image: '/carousel/support.svg', alt: 'Two speech bubbles' },
  { title: 'Sign Out', text: 'Hope to see you soon!', image: '/carousel/sign-out.svg', alt: 'An open door with an arrow leading out' },
];

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

/**
 * Auto-advances unless paused by the button, by a pointer over it, or while keyboard focus is
 * inside it (so a slide does not move away from someone reading or tabbing through it).
 */
export function WelcomeCarousel() {
  const navigate = useNavigate();
  const loadAuth = useAuthClient();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(prefersReducedMotion);
  const [focusInside, setFocusInside] = useState(false);
  // While a slide moves in, the carousel ignores the arrows and swipes: it says so as aria-busy.
  const [sliding, setSliding] = useState(false);
  const playing = !paused && !focusInside;

  const signOut = async () => {
    const { authClient } = await loadAuth();
    await authClient.signOut();
    void navigate('/auth', { replace: true });
  };

  return (
    <div
      onFocus={() => setFocusInside(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusInside(false);
      }}
    >
      <Carousel
        activeIndex={index}
        onSelect={(next) => setIndex(next)}
        onSlide={() => setSliding(true)}
        onSlid={() => setSliding(false)}
        aria-busy={sliding || undefined}
        interval={playing ? SLIDE_INTERVAL_MS : null}
        wrap
        touch
        keyboard
        pause="hover"
        indicatorLabels={SLIDES.map((slide) => `Show slide ${slide.title}`)}
        tabIndex={0}
        role="region"
        aria-roledescription="carousel"
        aria-label="What would you like to do today?"
        className="welcome-carousel rounded overflow-hidden"
        data-testid="welcome-carousel"
      >
        {SLIDES.map((slide, i) => (
          <Carousel.Item key={slide.title} role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${SLIDES.length}: ${slide.title}`}>
            <img className="d-block w-100 h-auto" src={slide.image} alt={slide.alt} width={1200} height={500} />
            <Carousel.Caption className="bg-dark bg-opacity-75 rounded">
              <h3 className="h5">{slide.title}</h3>
              {slide.to ? (
                <Link className="link-light" to={slide.to}>
                  {slide.text}
                </Link>
              ) : (
                <>
                  <p className="mb-2">{slide.text}</p>
                  <Button variant="light" size="sm" onClick={() => void signOut()}>
                    Sign Out
                  </Button>
                </>
              )}
            </Carousel.Caption>
          </Carousel.Item>
        ))}
      </Carousel>
      <div className="d-flex justify-content-between align-items-center mt-2">
        <span className="small text-body-secondary" aria-live={playing ? 'off' : 'polite'}>
          Slide {index + 1} of {SLIDES.length}: {SLIDES[index]!.title}
        </span>
        <Button variant="outline-secondary" size="sm" onClick={() => setPaused((value) => !value)}>
          {paused ? 'Play slides' : 'Pause slides'}
        </Button>
      </div>
    </div>
  );
}
