/** Shown while a lazily loaded screen arrives. */
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('ui');
  return (
    <div
      data-testid="page-spinner"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: fullScreen ? '100vh' : 240 }}
    >
      <Spin size="large" aria-label={t('loading')} />
    </div>
  );
}
