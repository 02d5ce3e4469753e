import { describe, expect, it } from 'vitest';
import { INBOX_MAX_DEPTH, INBOX_MAX_VALUES, inboxBodyProblem, isUnreadableActivityError } from './inbox-guard.js';

/** The inbox body's bounds, checked before any JSON-LD is read (issue 42); the HTTP side is in hostile-remote.test.ts. */
describe('inbox bodies: what is refused before anything reads them as JSON-LD', () => {
  const activity = (object: string) => `{"@context":"https://www.w3.org/ns/activitystreams","type":"Create","actor":"https://social.example/users/a","object":${object}}`;

  it('takes a real activity', () => {
    const note = JSON.stringify({
      id: 'https://social.example/notes/1',
      type: 'Note',
      content: '<p>Hello</p>',
      tag: Array.from({ length: 50 }, (_, index) => ({ type: 'Hashtag', name: `#tag${index}`, href: `https://social.example/tags/${index}` })),
    });
    expect(inboxBodyProblem(activity(note))).toBeNull();
  });

  it.each([5_000, 50_000])('refuses nesting %i deep, in arrays and in objects, without overflowing the stack', (depth) => {
    expect(inboxBodyProblem(activity(`${'['.repeat(depth)}1${']'.repeat(depth)}`))).toMatch(/levels deep/);
    expect(inboxBodyProblem(activity(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`))).toMatch(/levels deep/);
    expect(inboxBodyProblem(`{"@context":${'['.repeat(depth)}"https://www.w3.org/ns/activitystreams"${']'.repeat(depth)}}`)).toMatch(/levels deep/);
  });

  it('draws the depth line at 64 levels', () => {
    // The activity is level 1 and `object` level 2: `depth - 1` more arrays reach `depth`.
    const nestedTo = (depth: number) => activity(`${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`);
    expect(inboxBodyProblem(nestedTo(INBOX_MAX_DEPTH))).toBeNull();
    expect(inboxBodyProblem(nestedTo(INBOX_MAX_DEPTH + 1))).toMatch(/levels deep/);
  });

  it('refuses a 200,000-element array (and anything past the values cap)', () => {
    expect(inboxBodyProblem(activity(JSON.stringify(new Array(200_000).fill(0))))).toMatch(/at most/);
    expect(inboxBodyProblem(activity(JSON.stringify(new Array(INBOX_MAX_VALUES).fill('x'))))).toMatch(/at most/);
    expect(inboxBodyProblem(activity(JSON.stringify(new Array(1_000).fill({ a: 1 }))))).toBeNull();
  });

  it.each(['', 'not json', '[]', '[{"type":"Follow"}]', '"Follow"', '42', 'null', '{"a":'])('refuses %j', (body) => {
    expect(inboxBodyProblem(body)).not.toBeNull();
  });

  it('answers the errors a hostile activity causes in Fedify 400, and nothing else', () => {
    const jsonld = Object.assign(new Error('Dereferencing a URL did not result in a valid JSON-LD object.'), { name: 'jsonld.InvalidUrl' });
    for (const error of [jsonld, new RangeError('Maximum call stack size exceeded'), new SyntaxError('Unexpected token'), Object.assign(new Error('x'), { name: 'FetchError' })]) {
      expect(isUnreadableActivityError(error), error.name).toBe(true);
    }
    for (const error of [new Error('connection terminated'), new TypeError('Cannot read properties of undefined'), 'a string']) {
      expect(isUnreadableActivityError(error)).toBe(false);
    }
  });
});
