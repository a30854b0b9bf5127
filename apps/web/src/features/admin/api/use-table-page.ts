/**
 * One page of a server-paged admin table (GET /admin/…?cursor=&filters): the console's tables
 * walk forwards with the `x-next-cursor` header and back through the cursors already seen, so
 * a table of a million rows costs one indexed page per step (keyset paging on the server).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPage } from '../../../lib/api-client';
import { adminKeys } from './keys';

export function useTablePage<T>(path: string, filters: Record<string, string | undefined>) {
  const params = Object.fromEntries(
    Object.entries(filters).filter((e): e is [string, string] => !!e[1]),
  );
  const filterKey = JSON.stringify(params);
  // The cursors of the pages before this one (the first page has none), for these filters:
  // other filters start again at the first page.
  const key = `${path} ${filterKey}`;
  const [paging, setPaging] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = paging.key === key ? paging.cursors : [];
  const cursor = cursors[cursors.length - 1];
  const query = useQuery({
    queryKey: [...adminKeys.table(path, params), cursor ?? ''],
    queryFn: ({ signal }) => {
      const search = new URLSearchParams(params);
      if (cursor) search.set('cursor', cursor);
      const qs = search.toString();
      return apiPage<T>('GET', qs ? `${path}?${qs}` : path, undefined, { signal });
    },
    placeholderData: keepPreviousData,
  });
  const res = query.data;
  return {
    res,
    rows: res?.data ?? [],
    isPending: query.isPending,
    isFetching: query.isFetching,
    page: cursors.length + 1,
    hasNext: !!res?.nextCursor,
    hasPrev: cursors.length > 0,
    next: () => res?.nextCursor && setPaging({ key, cursors: [...cursors, res.nextCursor] }),
    prev: () => setPaging({ key, cursors: cursors.slice(0, -1) }),
    refetch: query.refetch,
  };
}
