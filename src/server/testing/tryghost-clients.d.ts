/** The parts of Ghost's own API clients the tests use (they ship no types; issue 60). */
declare module '@tryghost/content-api' {
  type Params = Record<string, string | number>;
  interface Resource {
    browse(options?: Params): Promise<unknown>;
    read(data: { id?: string; slug?: string }, options?: Params): Promise<unknown>;
  }
  export default function GhostContentAPI(options: { url: string; key: string; version: string | boolean; ghostPath?: string }): {
    posts: Resource;
    pages: Resource;
    tags: Resource;
    authors: Resource;
    settings: { browse(options?: Params): Promise<unknown> };
  };
}
