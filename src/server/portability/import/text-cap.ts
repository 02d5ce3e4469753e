/**
 * The longest text (one JSON string, one XML element's text) an import reads: far above any post
 * (this site keeps at most 20,000 characters; a long post's HTML or Lexical is a few hundred kB),
 * and far below what would exhaust a 512 MB machine once gathered, converted and rendered. A file
 * holding a longer one is refused before anything is written.
 */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
export const MAX_TEXT_LABEL = '16 MB';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Watches a JSON text go by, chunk by chunk, and says when one of its strings grows past `max`
 * bytes, before the parser has gathered it: `@streamparser/json` has no limit of its own.
 */
export class JsonStringCap {
  private inString = false;
  private escaped = false;
  private length = 0;

  constructor(private readonly max = MAX_TEXT_BYTES) {}

  /** False once a string is longer than the cap. */
  accepts(chunk: Uint8Array): boolean {
    let at = 0;
    while (at < chunk.length) {
      if (!this.inString) {
        const quote = chunk.indexOf(QUOTE, at);
        if (quote < 0) return true;
        this.inString = true;
        this.length = 0;
        at = quote + 1;
      } else if (this.escaped) {
        this.escaped = false;
        this.length += 1;
        at += 1;
      } else {
        const quote = chunk.indexOf(QUOTE, at);
        const end = quote < 0 ? chunk.length : quote;
        // The quote closes the string unless an odd run of backslashes stands before it.
        let backslashes = 0;
        while (end - backslashes - 1 >= at && chunk[end - backslashes - 1] === BACKSLASH) backslashes += 1;
        this.length += end - at;
        if (this.length > this.max) return false;
        if (quote < 0) {
          this.escaped = backslashes % 2 === 1;
          return true;
        }
        if (backslashes % 2 === 1) this.length += 1;
        else this.inString = false;
        at = quote + 1;
      }
    }
    return this.length <= this.max || !this.inString;
  }
}
