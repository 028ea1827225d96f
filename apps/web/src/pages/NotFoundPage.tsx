/** /404: where unknown paths land (spec section 2). */
import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Result
        data-testid="page-404"
        status="404"
        title="404"
        subTitle={t('notFound.text')}
        extra={
          <Button type="primary" onClick={() => navigate('/dashboard', { replace: true })}>
            {t('home')}
          </Button>
        }
      />
    </Flex>
  );
}
