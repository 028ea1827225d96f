/** The frame of every public page: a centered card with the Herald logo and the language switcher. */
import { Card, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from './LanguageSwitcher';

export function PublicLayout({ title, children }: { title?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('public');
  const { token } = theme.useToken();

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16, background: token.colorBgLayout }}>
      <Card style={{ width: '100%', maxWidth: 440 }}>
        <Flex align="center" justify="space-between" style={{ marginBottom: 16 }}>
          <Flex align="center" gap={8}>
            <img src="/favicon.svg" width={32} height={32} alt="" />
            <Typography.Text strong style={{ fontSize: 20 }}>
              {t('appName')}
            </Typography.Text>
          </Flex>
          <LanguageSwitcher />
        </Flex>
        {title && (
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {title}
          </Typography.Title>
        )}
        {children}
      </Card>
    </Flex>
  );
}
