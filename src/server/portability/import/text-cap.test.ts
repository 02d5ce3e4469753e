import { describe, expect, it } from 'vitest';
import { JsonStringCap } from './text-cap.js';

/** Whether the text passes a cap of `max` bytes a string, fed in chunks of `size` bytes (every split a stream could make). */
function accepts(text: string, max: number, size: number): boolean {
  const cap = new JsonStringCap(max);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) if (!cap.accepts(bytes.subarray(at, at + size))) return false;
  return true;
}

describe('JsonStringCap (no JSON string longer than the import reads)', () => {
  const every = (text: string, max: number) => [1, 2, 3, 7, 1 << 16].map((size) => accepts(text, max, size));

  it('lets strings of the cap through, however many, and counts each string apart', () => {
    expect(every(`{"a":"${'x'.repeat(10)}","b":["${'y'.repeat(10)}"]}`, 10)).toEqual([true, true, true, true, true]);
  });

  it('stops a string one byte over the cap', () => {
    expect(every(`{"a":"${'x'.repeat(11)}"}`, 10)).toEqual([false, false, false, false, false]);
  });

  it('counts escaped quotes and backslashes as part of the string, wherever the chunks split them', () => {
    // 13 bytes inside the quotes: \" and \\ are two bytes each.
    const escaped = `{"a":"ab\\"cd\\\\ef\\"g"}`;
    expect(every(escaped, 13)).toEqual([true, true, true, true, true]);
    expect(every(escaped, 12)).toEqual([false, false, false, false, false]);
    // After an escaped backslash the quote closes the string: "x\\" then a short string.
    expect(every(`["${'x'.repeat(8)}\\\\","${'y'.repeat(10)}"]`, 10)).toEqual([true, true, true, true, true]);
  });
});
