import { useSuspenseQuery } from '@tanstack/react-query';
import { paths } from '../../shared/paths';
import { Pager } from '../components/pager';
import { TagList } from '../features/tags/components/tag-list';
import { getTagsQueryOptions } from '../features/tags/api/get-tags';
import { TAG_TEXTS } from '../features/tags/tag-texts';
import { queryLoader } from '../lib/load-query';
import { LIST_SCREEN, type Screen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

/** /tags?page=N : the tags of public blogs, the most used first, each with its number of blogs. */
function TagsPage() {
  const [page, goTo] = usePageParam();
  const { data: tags } = useSuspenseQuery(getTagsQueryOptions(page));
  return (
    <>
      <h1 className="h3 mb-4">{TAG_TEXTS.tagsTitle}</h1>
      {tags.items.length === 0 ? <p>{page === 1 ? TAG_TEXTS.noTags : TAG_TEXTS.noTagsOnPage}</p> : <TagList tags={tags.items} />}
      <Pager page={page} hasMore={tags.hasMore} onPageChange={goTo} />
    </>
  );
}

export const tagsScreen: Screen = {
  ...LIST_SCREEN,
  Component: TagsPage,
  loader: queryLoader((url) => getTagsQueryOptions(pageFromUrl(url.searchParams.get('page')))),
  meta: ({ url }) => {
    const page = pageFromUrl(url.searchParams.get('page'));
    return {
      title: page > 1 ? `${TAG_TEXTS.tagsTitle}, page ${page}` : TAG_TEXTS.tagsTitle,
      description: TAG_TEXTS.tagsDescription,
      path: paths.tags(page),
    };
  },
  loadError: 'The tags could not be loaded.',
};
