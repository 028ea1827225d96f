/** Page and page size of a list the server pages; a new page size starts again at the first page. */
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@herald/shared';
import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';

export interface ServerPaging {
  page: number;
  size: number;
  toFirstPage: () => void;
  change: (nextPage: number, nextSize: number) => void;
  /** After a delete: when it took the last row of a page past the first, show the page before. */
  showPreviousIfEmptied: (rowsOnPage: number) => void;
  /** The table's pagination: a size changer, hidden while one page of the default size holds everything. */
  pagination: (total: number) => TablePaginationConfig;
}

export function useServerPaging(initialSize = DEFAULT_PAGE_SIZE): ServerPaging {
  const [page, setPage] = useState(DEFAULT_PAGE);
  const [size, setSize] = useState(initialSize);
  const change = (nextPage: number, nextSize: number) => {
    setPage(nextSize === size ? nextPage : DEFAULT_PAGE);
    setSize(nextSize);
  };
  return {
    page,
    size,
    toFirstPage: () => setPage(DEFAULT_PAGE),
    change,
    showPreviousIfEmptied: (rowsOnPage) => {
      if (rowsOnPage <= 1 && page > DEFAULT_PAGE) setPage(page - 1);
    },
    pagination: (total) => ({
      current: page,
      pageSize: size,
      total,
      showSizeChanger: true,
      hideOnSinglePage: total <= DEFAULT_PAGE_SIZE,
      onChange: change,
    }),
  };
}
