import { createRequire } from 'node:module';
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { HIGHLIGHT_LANGUAGES } from './highlight-aliases.generated.js';

/**
 * highlight.js with every language it ships (about 18 MB once loaded) costs memory whether or not
 * a post has code. Here its core loads with the first code block, and each language with the
 * first block that names it (or one of its aliases), together with the languages it embeds (CSS
 * and JavaScript inside HTML, ...), so what a block renders to is what the full bundle gives
 * (`highlight-languages.test.ts` compares them). The names and aliases are a generated table
 * (`scripts/highlight-aliases.mjs`): learning them at run time would mean loading every language.
 */

const require = createRequire(import.meta.url);

let core: HLJSApi | undefined;

/**
 * highlight.js with the language called `name` (or aliased so) registered, and the name to ask it
 * for: the registered one, since the order languages arrive in here may give an alias another
 * owner than the full bundle gives it. Undefined if highlight.js knows no such language.
 */
export function highlighterFor(name: string): { hljs: HLJSApi; language: string } | undefined {
  const file = HIGHLIGHT_LANGUAGES[name.toLowerCase()];
  if (!file) return undefined;
  // An instance of our own: the module's shared one is the full bundle's too, should anything load it.
  core ??= (require('highlight.js/lib/core') as HLJSApi).newInstance();
  register(core, file);
  return { hljs: core, language: file };
}

function register(hljs: HLJSApi, file: string): void {
  if (hljs.getLanguage(file)) return;
  hljs.registerLanguage(file, require(`highlight.js/lib/languages/${file}`) as LanguageFn);
  for (const embedded of subLanguages(hljs.getLanguage(file))) {
    const embeddedFile = HIGHLIGHT_LANGUAGES[embedded.toLowerCase()];
    if (embeddedFile) register(hljs, embeddedFile);
  }
}

/** The names a language's grammar hands parts of its text to (`subLanguage`), at any depth. */
function subLanguages(grammar: unknown): Set<string> {
  const found = new Set<string>();
  const seen = new Set<object>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || node instanceof RegExp || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const each of node) visit(each);
      return;
    }
    const record = node as Record<string, unknown>;
    const sub = record.subLanguage;
    if (typeof sub === 'string') found.add(sub);
    else if (Array.isArray(sub)) for (const each of sub) if (typeof each === 'string') found.add(each);
    for (const value of Object.values(record)) visit(value);
  };
  visit(grammar);
  return found;
}
