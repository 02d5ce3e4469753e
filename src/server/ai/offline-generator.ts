import { setTimeout as sleep } from 'node:timers/promises';
import {
  ANECDOTES, CLOSERS, FIRST_TRANSITIONS, LATER_TRANSITIONS, OPENERS, PROMISES, REFLECTIONS, TIPS,
  TITLES, TOPICS,
  type BlogTopic,
} from './offline-material.js';

/**
 * The generator that answers when no AI key is configured, so the AI page works on a fresh
 * clone: a short blog (an h1 and 3 to 5 paragraphs) assembled from `offline-material.ts`.
 */

export const OFFLINE_MODEL_LABEL = 'offline generator';

type Random = () => number;

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)] ?? items[0]!;
}

/** `count` different items, in random order. */
function pickDistinct<T>(items: readonly T[], count: number, random: Random): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) {
    chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  }
  return chosen;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function fill(template: string, topic: BlogTopic): string {
  const values: Record<string, string> = {
    ...topic,
    Name: capitalize(topic.name),
    Tool: capitalize(topic.tool),
    Small: capitalize(topic.small),
  };
  return template.replace(/\{(\w+)\}/g, (placeholder, key: string) => values[key] ?? placeholder);
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** One random blog as HTML: `<h1>title</h1>` then 3 to 5 `<p>` paragraphs. */
export function generateOfflineBlog(random: Random = Math.random): string {
  const topic = pick(TOPICS, random);
  const bodyCount = 1 + Math.floor(random() * 3);
  const transitions = [pick(FIRST_TRANSITIONS, random), ...pickDistinct(LATER_TRANSITIONS, bodyCount - 1, random)];
  const tips = pickDistinct(TIPS, bodyCount, random);
  const anecdotes = pickDistinct(ANECDOTES, bodyCount, random);

  const paragraphs = [
    [pick(OPENERS, random), pick(REFLECTIONS, random), pick(PROMISES, random)].join(' '),
    ...tips.map((tip, i) => {
      const sentences = [`${transitions[i]!} ${tip}`];
      if (random() < 0.5) sentences.push(anecdotes[i]!);
      return sentences.join(' ');
    }),
    pick(CLOSERS, random),
  ];

  const title = pick(TITLES, random);
  return [
    `<h1>${escapeText(fill(title, topic))}</h1>`,
    ...paragraphs.map((text) => `<p>${escapeText(fill(text, topic))}</p>`),
  ].join('\n');
}

export interface OfflineStreamOptions {
  random?: Random;
  /** Pause between chunks, so the page shows the text arriving as a model's would. */
  delayMs?: number;
}

/** The blog in chunks of a few words; ends early, without error, once `signal` aborts. */
export async function* streamOfflineBlog(
  signal?: AbortSignal,
  { random = Math.random, delayMs = 15 }: OfflineStreamOptions = {},
): AsyncGenerator<string> {
  // Tags contain no spaces, so cutting at spaces never splits one.
  const words = generateOfflineBlog(random).split(/(?<=\s)/);
  for (let i = 0; i < words.length; ) {
    if (signal?.aborted) return;
    const size = 2 + Math.floor(random() * 3);
    yield words.slice(i, i + size).join('');
    i += size;
    if (i < words.length && delayMs > 0) {
      try {
        await sleep(delayMs, undefined, { signal });
      } catch {
        return;
      }
    }
  }
}
