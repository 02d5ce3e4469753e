import { createRequire } from 'node:module';
import type { HLJSApi } from 'highlight.js';
import { describe, expect, it } from 'vitest';
import { highlighterFor } from './highlight-languages.js';

const require = createRequire(import.meta.url);
// The full bundle, every language registered up front: what rendering used before.
const full = require('highlight.js') as HLJSApi;

describe('highlighting languages loaded on first use', () => {
  // First: the languages registered here must be only those these samples bring in.
  it('renders embedded languages as the full bundle does (CSS and JavaScript inside HTML, HTML inside PHP)', () => {
    const samples: Array<[string, string]> = [
      ['html', '<style>p { color: red }</style><script>const a = 1;</script><p class="x">hi</p>'],
      ['php', '<?php echo "x"; ?><div><script>let b = 2;</script></div>'],
      ['markdown', '# Title\n\n```js\nconst c = 3;\n```\n'],
      ['handlebars', '<div>{{#if a}}<b>{{name}}</b>{{/if}}</div>'],
      ['erb', '<p><%= user.name %></p><script>go()</script>'],
      ['ts', 'const d: number = 4;'],
    ];
    for (const [language, code] of samples) {
      const { hljs, language: registered } = highlighterFor(language)!;
      const lazy = hljs.highlight(code, { language: registered, ignoreIllegals: true }).value;
      expect(lazy, language).toBe(full.highlight(code, { language, ignoreIllegals: true }).value);
    }
  });

  it('knows every name and alias the full bundle knows, as the same language', () => {
    const everyName = full.listLanguages().flatMap((name) => [name, ...(full.getLanguage(name)!.aliases ?? [])]);
    expect(everyName.length).toBeGreaterThan(300);
    for (const name of everyName) {
      const lazy = highlighterFor(name);
      expect(lazy?.hljs.getLanguage(lazy.language)?.name, name).toBe(full.getLanguage(name)!.name);
    }
    expect(highlighterFor('no-such-language')).toBeUndefined();
  });
});
