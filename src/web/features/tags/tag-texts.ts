/** Texts of tag pages (not in the spec, so not in `shared/messages`). */
export const TAG_TEXTS = {
  blogsTagged: (tag: string) => `Blogs tagged ${tag}`,
  noBlogsTagged: (tag: string) => `There are no blogs tagged ${tag}`,
  noSuchTag: 'There is no such tag',
  allTags: 'All tags',
  tagsTitle: 'Tags',
  tagsDescription: 'Every tag of the blogs, the most used first.',
  noTags: 'No blog has tags yet.',
  noTagsOnPage: 'There are no tags on this page.',
} as const;
