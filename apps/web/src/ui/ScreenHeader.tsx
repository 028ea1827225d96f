/** A screen's heading: its title over a secondary subtitle, with the screen's actions at the other end of the line. */
import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface ScreenHeaderProps {
  title: ReactNode;
  subtitle: ReactNode;
  /** The actions: a button or a group of them. */
  children?: ReactNode;
  marginBottom?: number;
}

export function ScreenHeader({ title, subtitle, children, marginBottom = 16 }: ScreenHeaderProps) {
  return (
    <Flex justify="space-between" align="start" gap={16} wrap style={{ marginBottom }}>
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{subtitle}</Typography.Text>
      </div>
      {children}
    </Flex>
  );
}
