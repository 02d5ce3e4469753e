import { describe, expect, it } from 'vitest';
import { searchWords } from './search-words.js';

describe('searchWords', () => {
  it('splits on anything that is not a letter or digit, in any script', () => {
    expect(searchWords('apple banana')).toEqual(['apple', 'banana']);
    expect(searchWords("  Rock'n'roll, 2024!  ")).toEqual(['rock', 'n', 'roll', '2024']);
    expect(searchWords('café Über 東京 naïve')).toEqual(['café', 'über', '東京', 'naïve']);
    expect(searchWords('apple & !banana | (cherry:*)')).toEqual(['apple', 'banana', 'cherry']);
    expect(searchWords("'; drop table blogs; --")).toEqual(['drop', 'table', 'blogs']);
    expect(searchWords('🍎 apple🍌banana')).toEqual(['apple', 'banana']);
    expect(searchWords('tab\there\u0000nul')).toEqual(['tab', 'here', 'nul']);
  });

  it('keeps combining marks inside their word', () => {
    expect(searchWords('cafe\u0301 hindi हिन्दी')).toEqual(['café', 'hindi', 'हिन्दी']);
  });

  it('finds no words in blanks, punctuation or emoji', () => {
    for (const term of ['', '   ', '\t\n', '&|!():*', '""\'\'', '🍎🍌', '<>/\\']) expect(searchWords(term)).toEqual([]);
  });

  it('drops repeats and words longer than any title', () => {
    expect(searchWords('Apple apple APPLE')).toEqual(['apple']);
    expect(searchWords(`${'x'.repeat(201)} short`)).toEqual(['short']);
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(searchWords(many)).toHaveLength(200);
  });
});
