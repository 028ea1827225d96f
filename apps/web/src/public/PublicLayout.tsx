/** The frame of every public page: a centered panel with the Herald logo and the language switcher. */
import { Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from './LanguageSwitcher';

export function PublicLayout({ title, children }: { title?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('public');
  const { token } = theme.useToken();

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16, background: token.colorBgLayout }}>
      {/* Styled like antd's Card without importing it: Card pulls in Tabs for a feature these pages never use. */}
      <div
        style={{
          width: '100%',
          maxWidth: 440,
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <Flex align="center" justify="space-between" wrap gap={8} style={{ marginBottom: 16 }}>
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
      </div>
    </Flex>
  );
}
