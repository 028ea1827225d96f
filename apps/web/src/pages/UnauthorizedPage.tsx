/** /401: where a user lacking the route's role lands; they arrive with `replace`, so Back does not loop. */
import { Button, Flex, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function UnauthorizedPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Result
        data-testid="page-401"
        status="403"
        title="401"
        subTitle={t('unauthorized.text')}
        extra={
          <Space wrap>
            <Button type="primary" onClick={() => navigate('/dashboard', { replace: true })}>
              {t('home')}
            </Button>
            <Button onClick={() => navigate('/settings/account')}>{t('unauthorized.account')}</Button>
          </Space>
        }
      />
    </Flex>
  );
}
