/** One paged list from the API with the spec's defaults (page 1, size 10). */
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@herald/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../api/http';

export interface Page<T> {
  total: number;
  items: T[];
}

export function usePagedQuery<T>(path: string) {
  const [page, setPage] = useState(DEFAULT_PAGE);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const query = useQuery({
    queryKey: [path, page, size],
    queryFn: () => http.get<Page<T>>(path, { page, size }),
    placeholderData: keepPreviousData,
  });
  const pagination = {
    current: page,
    pageSize: size,
    total: query.data?.total ?? 0,
    showSizeChanger: true,
    onChange: (next: number, nextSize: number) => {
      setPage(nextSize === size ? next : DEFAULT_PAGE);
      setSize(nextSize);
    },
  };
  return { query, pagination };
}
