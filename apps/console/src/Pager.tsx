import type { Page, PagesState } from './use-pages.js';

/** "Previous / page N / Next" under a server-paginated table. */
export function Pager<T extends Page>({ pages, label }: { pages: PagesState<T>; label: string }) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={pages.previous} disabled={!pages.hasPrevious}>
        Previous
      </button>
      <span>Page {pages.number}</span>
      <button type="button" onClick={pages.next} disabled={!pages.data?.has_more}>
        Next
      </button>
    </nav>
  );
}
