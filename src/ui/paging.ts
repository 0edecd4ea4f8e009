// Pages of long lists: `?page=N`, 25 rows a page; a bad or absent number is page 1.
export const PAGE_SIZE = 25;

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

export function paging(query: { page?: string | undefined }): Paging {
  const n = Number(query.page);
  const page = Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
  return { page, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
}

/** What the pager partial shows: the pages before/after and the other query parameters kept. */
export function pager(p: Paging, total: number, params: Record<string, string | undefined>) {
  const pages = Math.max(1, Math.ceil(total / p.limit));
  const href = (page: number) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
    if (page > 1) search.set('page', String(page));
    const text = search.toString();
    return text ? `?${text}` : '?';
  };
  return {
    page: p.page,
    pages,
    total,
    from: total === 0 ? 0 : p.offset + 1,
    to: Math.min(total, p.offset + p.limit),
    prev: p.page > 1 ? href(p.page - 1) : null,
    next: p.page < pages ? href(p.page + 1) : null,
  };
}
