/** Route error element: a screen that failed to load or render is replaced by this, not a blank page. */
import { CloseCircleFilled, WarningFilled } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Navigate, useNavigate, useRouteError } from 'react-router';

/** A failed dynamic import usually means a new release replaced the chunk this page knew about. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { t } = useTranslation('ui');
  const { token } = theme.useToken();
  if (isRouteErrorResponse(error) && error.status === 404) return <Navigate to="/404" replace />;
  const chunk = isChunkLoadError(error);
  const detail =
    error instanceof Error ? error.message : isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  // Plain icons rather than antd Result, whose illustrations would weigh on every page's first load.
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '48px 16px', textAlign: 'center' }} data-testid="route-error">
      {chunk ? (
        <WarningFilled style={{ fontSize: 64, color: token.colorWarning }} />
      ) : (
        <CloseCircleFilled style={{ fontSize: 64, color: token.colorError }} />
      )}
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t(chunk ? 'routeError.updatedTitle' : 'routeError.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t(chunk ? 'routeError.updatedDescription' : 'routeError.description')}</Typography.Text>
      {detail && !chunk && <Typography.Text code>{detail}</Typography.Text>}
      <Flex gap={8} wrap justify="center">
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
        <Button onClick={() => navigate('/dashboard')}>{t('routeError.home')}</Button>
      </Flex>
    </Flex>
  );
}
