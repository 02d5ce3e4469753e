import MarkdownIt from 'markdown-it';

/**
 * The lenient reading of a WordPress export that is not well-formed XML. Real exports are not
 * always: plugins write a bare `&` into `<wp:attachment_url>` or `<link>`, HTML entities
 * (`&nbsp;`) outside CDATA, or control characters pasted from a word processor, and a strict
 * parser stops at the first. This sits in front of saxes, as a stream, and repairs only what
 * makes a file not well-formed, so a well-formed file passes through unchanged:
 *
 * - a bare `&` (one that starts no reference) becomes `&amp;`;
 * - an entity XML does not define becomes its character when HTML defines it (`&nbsp;`), else
 *   its text (`&amp;foo;`);
 * - a character XML 1.0 forbids (U+0000–U+001F but tab, newline and carriage return;
 *   U+FFFE, U+FFFF), written or as a reference (`&#11;`), is removed.
 *
 * CDATA sections, comments and processing instructions are left as they are (but for forbidden
 * characters, which they may not hold either). Each repair is counted on its line, for the
 * report. A DTD is never read: `<!DOCTYPE` is refused by the reader, repaired or not.
 */
export class XmlRepair {
  private carry = '';
  private state: 'text' | 'cdata' | 'comment' | 'pi' = 'text';
  private line = 1;
  private readonly byLine = new Map<number, Map<string, number>>();
  private linesBeyond = 0;
  private lastLineBeyond = 0;

  /** Lines whose repairs are listed one by one; past them, only counted. */
  static readonly LISTED_LINES = 1000;
  /** Kinds of repair named on one line (a hostile line may hold a million different entities); past them, counted together. */
  static readonly KINDS_PER_LINE = 10;

  /** The chunk repaired; text that may be part of a reference or a marker split across chunks waits for the next. */
  write(chunk: string): string {
    return this.repair(this.carry + chunk, false);
  }

  /** What was held back, repaired, at the end of the file. */
  end(): string {
    return this.repair(this.carry, true);
  }

  /** One entry per repaired line: `line 12: a bare "&" escaped (3 times)`. */
  repairs(): string[] {
    const lines = [...this.byLine].map(
      ([line, kinds]) => `line ${line}: ${[...kinds].map(([kind, count]) => (count > 1 ? `${kind} (${count} times)` : kind)).join('; ')}`,
    );
    if (this.linesBeyond > 0) lines.push(`… and ${this.linesBeyond} more lines repaired the same ways`);
    return lines;
  }

  private repair(text: string, final: boolean): string {
    const out: string[] = [];
    let from = 0;
    let counted = 0;
    const note = (at: number, kind: string) => {
      this.line += countNewlines(text, counted, at);
      counted = at;
      const kinds = this.byLine.get(this.line);
      if (kinds) {
        const named = kinds.has(kind) || kinds.size < XmlRepair.KINDS_PER_LINE ? kind : OTHER_REPAIRS;
        kinds.set(named, (kinds.get(named) ?? 0) + 1);
      } else if (this.byLine.size < XmlRepair.LISTED_LINES) this.byLine.set(this.line, new Map([[kind, 1]]));
      else if (this.lastLineBeyond !== this.line) {
        this.linesBeyond += 1;
        this.lastLineBeyond = this.line;
      }
    };
    let at = 0;
    while (at < text.length) {
      if (this.state !== 'text') {
        const close = CLOSERS[this.state];
        const end = text.indexOf(close, at);
        const stop = end < 0 ? (final ? text.length : Math.max(at, text.length - close.length + 1)) : end + close.length;
        // Forbidden characters are forbidden in CDATA and comments too.
        const inside = text.slice(at, stop);
        FORBIDDEN.lastIndex = 0;
        for (let match = FORBIDDEN.exec(inside); match; match = FORBIDDEN.exec(inside)) {
          out.push(text.slice(from, at + match.index));
          note(at + match.index, forbiddenKind(match[0]));
          from = at + match.index + 1;
        }
        at = stop;
        if (end < 0) break;
        this.state = 'text';
        continue;
      }
      SPECIAL.lastIndex = at;
      const match = SPECIAL.exec(text);
      if (!match) {
        at = text.length;
        break;
      }
      const k = match.index;
      const found = match[0];
      if (found === '<') {
        const marker = MARKERS.find(([open]) => text.startsWith(open, k));
        if (marker) {
          this.state = marker[1];
          at = k + marker[0].length;
        } else if (!final && text.length - k < LONGEST_MARKER && MARKERS.some(([open]) => open.startsWith(text.slice(k)))) {
          at = k;
          break;
        } else at = k + 1;
      } else if (found === '&') {
        REFERENCE.lastIndex = k;
        const reference = REFERENCE.exec(text);
        if (!reference && !final && text.length - k < LONGEST_REFERENCE) {
          at = k;
          break;
        }
        const replacement = reference ? repairReference(reference[0]) : { text: '&amp;', kind: 'a bare "&" escaped' };
        if (replacement) {
          out.push(text.slice(from, k), replacement.text);
          note(k, replacement.kind);
          from = k + (reference ? reference[0].length : 1);
        }
        at = k + (reference ? reference[0].length : 1);
      } else {
        out.push(text.slice(from, k));
        note(k, forbiddenKind(found));
        from = at = k + 1;
      }
    }
    out.push(text.slice(from, at));
    this.line += countNewlines(text, counted, at);
    this.carry = text.slice(at);
    return out.join('');
  }
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const SPECIAL = /[<&\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const REFERENCE = /&(?:#[0-9]{1,8}|#x[0-9A-Fa-f]{1,6}|[A-Za-z_][A-Za-z0-9._-]{0,40});/y;
const LONGEST_REFERENCE = 44;
const MARKERS: ReadonlyArray<[string, 'cdata' | 'comment' | 'pi']> = [
  ['<![CDATA[', 'cdata'],
  ['<!--', 'comment'],
  ['<?', 'pi'],
];
const LONGEST_MARKER = 9;
const CLOSERS = { cdata: ']]>', comment: '-->', pi: '?>' } as const;
const XML_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const OTHER_REPAIRS = 'other repairs';

let html: MarkdownIt | undefined;

/** A reference as XML takes it; undefined when it is well-formed already. */
function repairReference(reference: string): { text: string; kind: string } | undefined {
  const name = reference.slice(1, -1);
  if (name.startsWith('#')) {
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    if (isXmlChar(code)) return undefined;
    return { text: '', kind: `a reference to a character XML forbids (${reference}) removed` };
  }
  if (XML_ENTITIES.has(name)) return undefined;
  html ??= new MarkdownIt();
  const decoded = html.utils.unescapeAll(reference);
  if (decoded !== reference) return { text: escapeXml(decoded), kind: `the HTML entity ${reference} replaced by its character` };
  return { text: `&amp;${name};`, kind: `the undefined entity ${reference} kept as text` };
}

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

function forbiddenKind(char: string): string {
  return `a control character XML forbids (U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) removed`;
}

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
