/** API and SDK documentation on one page; `focus` scrolls to the part the route names. */
import { ApiOutlined, CodeOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export type DocumentationPart = 'api' | 'sdk';

const OPENAPI_URL = '/api/openapi.json';

export default function Documentation({ focus = 'api' }: { focus?: DocumentationPart }) {
  const { t } = useTranslation('documentation');
  const parts = { api: useRef<HTMLDivElement>(null), sdk: useRef<HTMLDivElement>(null) };
  const target = parts[focus];

  // Runs again whenever a kept-alive tab is shown, so the page opens at the part its route names.
  useEffect(() => {
    target.current?.scrollIntoView({ block: 'start' });
  }, [target]);

  return (
    <Flex vertical gap={16} data-testid="documentation">
      <div ref={parts.api} style={{ scrollMarginTop: 120 }}>
        <EmptyState
          testId="documentation-api"
          icon={<ApiOutlined />}
          title={t('api.title')}
          description={t('api.description')}
          capabilities={textList(t, 'api.capabilities')}
          actions={
            <Button href={OPENAPI_URL} target="_blank" rel="noreferrer">
              {t('api.openapi')}
            </Button>
          }
        />
      </div>
      <div ref={parts.sdk} style={{ scrollMarginTop: 120 }}>
        <EmptyState
          testId="documentation-sdk"
          icon={<CodeOutlined />}
          title={t('sdk.title')}
          description={t('sdk.description')}
          capabilities={textList(t, 'sdk.capabilities')}
        />
      </div>
    </Flex>
  );
}
