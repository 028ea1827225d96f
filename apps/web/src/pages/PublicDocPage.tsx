/** /doc: the API and SDK documentation for visitors who are not signed in. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Button, Flex, Layout, Segmented, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { LanguageSelect } from '../layout/LanguageSelect';
import Documentation, { type DocumentationPart } from '../sections/documentation/Documentation';
import { useSession } from '../session/useSession';

// Public pages sit outside the console's query client, so this page brings its own for the OpenAPI document.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

export default function PublicDocPage() {
  const { t } = useTranslation('pages');
  const { token } = theme.useToken();
  const { token: session } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const focus: DocumentationPart = location.hash === '#sdk' ? 'sdk' : 'api';

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="public-doc">
      <Flex
        align="center"
        justify="space-between"
        gap={12}
        style={{
          height: 56,
          paddingInline: 16,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        <Link to="/doc" style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
          <img src="/favicon.svg" width={28} height={28} alt="" />
          <Typography.Text strong ellipsis style={{ fontSize: 18 }}>
            {t('doc.title')}
          </Typography.Text>
        </Link>
        <Flex align="center" gap={8} style={{ flexShrink: 0 }}>
          <Segmented<DocumentationPart>
            value={focus}
            onChange={(part) => navigate({ hash: part }, { replace: true })}
            options={[
              { value: 'api', label: t('doc.api') },
              { value: 'sdk', label: t('doc.sdk') },
            ]}
          />
          <LanguageSelect />
          <Button type="primary" onClick={() => navigate(session ? '/dashboard' : '/login')}>
            {t(session ? 'doc.console' : 'doc.signIn')}
          </Button>
        </Flex>
      </Flex>
      <Layout.Content style={{ padding: 16, maxWidth: 1100, width: '100%', margin: '0 auto' }}>
        <QueryClientProvider client={queryClient}>
          <Documentation focus={focus} />
        </QueryClientProvider>
      </Layout.Content>
    </Layout>
  );
}
