/** API and SDK documentation on one page (spec: /documentation, "api and sdk, both on one page"); `focus` scrolls to a part. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Flex } from 'antd';
import { useEffect, useRef } from 'react';
import { http } from '../../api/http';
import { ApiReference } from './ApiReference';
import type { OpenApiDocument } from './openapi';
import { SdkGuide } from './SdkGuide';

export type DocumentationPart = 'api' | 'sdk';

/** The live document of this server; it changes only with a new server version, so it is fetched once. */
const openApiQuery = queryOptions({
  queryKey: ['openapi'],
  queryFn: () => http.get<OpenApiDocument>('/openapi.json', undefined, { silent: true }),
  staleTime: Number.POSITIVE_INFINITY,
});

export default function Documentation({ focus = 'api' }: { focus?: DocumentationPart }) {
  const parts = { api: useRef<HTMLDivElement>(null), sdk: useRef<HTMLDivElement>(null) };
  const target = parts[focus];
  const query = useQuery(openApiQuery);
  const loaded = query.isSuccess;

  // Runs again whenever a kept-alive tab is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `loaded` re-runs it once the API reference above has loaded and pushed the SDK part down.
  useEffect(() => {
    target.current?.scrollIntoView({ block: 'start' });
  }, [target, loaded]);

  return (
    <Flex vertical gap={16} data-testid="documentation" data-focus={focus}>
      <div ref={parts.api} style={{ scrollMarginTop: 120 }}>
        <ApiReference document={query.data} loading={query.isPending} error={query.error} onRetry={() => void query.refetch()} />
      </div>
      <div ref={parts.sdk} style={{ scrollMarginTop: 120 }}>
        <SdkGuide />
      </div>
    </Flex>
  );
}
