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
declare module '@tryghost/admin-api' {
  type Params = Record<string, string | number>;
  type Post = Record<string, unknown>;
  interface Posts {
    browse(options?: Params): Promise<Post[] & { meta: { pagination: Record<string, unknown> } }>;
    read(data: { id?: string; slug?: string }, options?: Params): Promise<Post>;
    add(data: Post, options?: Params): Promise<Post>;
    edit(data: Post & { id: string }, options?: Params): Promise<Post>;
    delete(data: { id: string }): Promise<unknown>;
  }
  export default function GhostAdminAPI(options: { url: string; key: string; version: string | boolean; ghostPath?: string }): {
    posts: Posts;
    images: { upload(data: { file: string; ref?: string; purpose?: string }): Promise<{ url: string; ref: string | null }> };
    site: { read(): Promise<Record<string, unknown>> };
    users: { browse(options?: Params): Promise<unknown> };
  };
}
