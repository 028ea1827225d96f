/** The first-run state of a screen: what it holds, what the user can do there, and where to start. */
import { CheckCircleOutlined } from '@ant-design/icons';
import { Card, Result, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  description: string;
  capabilities?: readonly string[];
  actions?: ReactNode;
  testId?: string;
}

export function EmptyState({ icon, title, description, capabilities, actions, testId = 'empty-state' }: EmptyStateProps) {
  const { t } = useTranslation('ui');
  const { token } = theme.useToken();
  return (
    <Card data-testid={testId} variant="borderless">
      <Result
        icon={<span style={{ fontSize: 56, color: token.colorPrimary }}>{icon}</span>}
        title={title}
        subTitle={<span style={{ display: 'inline-block', maxWidth: 640 }}>{description}</span>}
        extra={actions}
      >
        {capabilities && capabilities.length > 0 && (
          <div style={{ maxWidth: 640, margin: '0 auto' }}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('emptyState.capabilities')}
            </Typography.Title>
            <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {capabilities.map((capability) => (
                <li key={capability} style={{ display: 'flex', gap: 8, padding: '4px 0' }}>
                  <CheckCircleOutlined style={{ color: token.colorSuccess, marginTop: 4 }} />
                  <Typography.Text>{capability}</Typography.Text>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Result>
    </Card>
  );
}
